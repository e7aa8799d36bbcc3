// glibc's heap settings for Hearth's server process on Linux. Node gives every socket read a fresh
// 64 KB buffer and frees them in bulk at each garbage collection; with glibc's defaults the freed
// top of the heap beyond 128 KB goes back to the kernel at once, and the next reads fault it in
// again, page by page. Relaying a film through the stream proxy so cost Hearth about 170k page
// faults and a quarter of its CPU per GB (bench/media.ts). Keeping up to 256 MB of freed heap and
// growing it 16 MB at a time removes nearly all of them; the memory stays Hearth's to reuse, and
// RSS still follows what is really in use at the peak.
// glibc reads these only when a process starts: scripts/start.mjs (npm start) therefore starts the
// server in a child with them set, and bench/media.ts starts its Hearth the same way. Elsewhere
// (macOS, Windows, musl, or Electron's own allocator) they are not used and cost nothing.

export const GLIBC_HEAP_TUNABLES = 'glibc.malloc.trim_threshold=268435456:glibc.malloc.top_pad=16777216';

/**
 * What to add to the environment of a server process started on `platform`: the heap settings on
 * Linux, nothing where glibc is not used or when GLIBC_TUNABLES is already set (the operator's own
 * settings win).
 */
export function heapTunablesEnv(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): Record<string, string> {
  if (platform !== 'linux' || env.GLIBC_TUNABLES !== undefined) return {};
  return { GLIBC_TUNABLES: GLIBC_HEAP_TUNABLES };
}

/**
 * The environment the programs Hearth starts (kiwix-serve, Ollama, Python, pip) get: Hearth's own
 * heap setting taken out (config.ts childProcessEnv), so they keep their usual heap behaviour
 * instead of inheriting a setting made for the stream proxy. An operator's own GLIBC_TUNABLES (any
 * other value) is passed on untouched.
 */
export function withoutHeapTunables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.GLIBC_TUNABLES !== GLIBC_HEAP_TUNABLES) return env;
  const { GLIBC_TUNABLES: _ours, ...rest } = env;
  return rest;
}
