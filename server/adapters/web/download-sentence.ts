// What a failed download (a file from the internet, or a model Ollama pulls) says to a person: a
// sentence with a next step, never a raw error code or a host name shown as the error. The raw
// error goes to the log (the download runner logs it beside the job). Sentences pass through
// unchanged, so applying it twice, or to an error stored before it existed, is safe.

const NEXT = 'then retry it from Downloads.';

const STATUS: Array<[test: (code: number) => boolean, sentence: string]> = [
  [(c) => c === 404 || c === 410, 'The file is no longer where Hearth looked for it. An update of Hearth may know its new address; retrying will not help until then.'],
  [(c) => c === 401 || c === 403, 'The download site refused to hand over the file. It may need an account or a key; check that, then retry it from Downloads.'],
  [(c) => c === 429, 'The download site asked Hearth to slow down. Wait a while, then retry it from Downloads.'],
  [(c) => c >= 500, `The download site had a problem of its own. Hearth tries again by itself; if it keeps failing, wait a while, ${NEXT}`],
];

export function downloadErrorSentence(raw: string): string {
  const text = raw.trim();
  const status = /^The server answered (\d{3})\.$/.exec(text);
  if (status) {
    const code = Number(status[1]);
    return STATUS.find(([t]) => t(code))?.[1] ?? `The download site would not hand over the file. Check the internet connection, ${NEXT}`;
  }
  const stall = /^No data for (\d+) s\.$/.exec(text);
  if (stall) return `The download stopped receiving data for ${stall[1]} seconds. Check the internet connection; Hearth tries again by itself, or ${NEXT}`;
  if (/model runtime is not reachable|not reachable at http/i.test(text)) return `Ollama, the model runtime, is not running on this computer. Start it, ${NEXT}`;
  if (/ENOTFOUND|EAI_AGAIN|getaddrinfo|no such host|server misbehaving|lookup \S+ on/i.test(text)) {
    return `Hearth could not reach the download site: this computer seems to be offline. Check its internet connection, ${NEXT}`;
  }
  if (/ECONNREFUSED|connection refused/i.test(text)) return `The download site refused the connection. Wait a while, ${NEXT}`;
  if (/ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|Connect Timeout|i\/o timeout|timed out/i.test(text)) {
    return `The download site did not answer in time. Check the internet connection, ${NEXT}`;
  }
  if (/ECONNRESET|EPIPE|socket hang up|UND_ERR_SOCKET|other side closed|unexpected EOF/i.test(text)) {
    return `The connection dropped during the download. Retry it from Downloads; it continues where it stopped.`;
  }
  if (/certificate|CERT_|SSL|TLS/i.test(text)) {
    return `The download site's security certificate could not be checked, so Hearth stopped. Check this computer's date and time, ${NEXT}`;
  }
  if (/^Could not connect\b/i.test(text)) return `Hearth could not connect to the download site. Check the internet connection, ${NEXT}`;
  if (/^Pulling .* failed: /i.test(text)) return `Ollama could not download the model. Check the internet connection, ${NEXT}`;
  return text;
}
