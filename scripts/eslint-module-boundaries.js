// The server's module boundaries as one ESLint rule, `hearth/module-boundaries` (eslint.config.js
// turns it on for server/**). It resolves each relative import to the file it names, so it knows
// which module a file and its import belong to, whatever the folder depth:
// - a store (`store.ts`, `<part>-store.ts` under server/modules/<x>/) is imported only by its own
//   module, and there not by its route-side files (routes.ts, <part>-routes.ts, http-io.ts);
// - a module reaches another module only through that module's `schema.ts` and `public.ts` (values
//   and types), or, as `import type`, its services (`service.ts`, `<part>-service.ts`), for the
//   ports that pick from them. `server/modules/module.ts` (the manifest types) is shared by all.
// test/unit/lint-rules.test.ts proves each case fires on a probe and stays quiet on an allowed one.
import path from 'node:path';

const MODULES = path.join('server', 'modules');
const ROUTE_SIDE = /^(routes|[a-z0-9-]+-routes|http-io)$/;
const STORE = /^(store|[a-z0-9-]+-store)$/;
const SERVICE = /^(service|[a-z0-9-]+-service)$/;
const PUBLIC = /^(schema|public)$/;

/** `{module, rest, base}` for a path under server/modules/<module>/, else null. */
function moduleOf(file, root) {
  const rel = path.relative(path.join(root, MODULES), file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  if (parts.length < 2) return null; // server/modules/module.ts itself
  return { module: parts[0], rest: parts.slice(1).join('/'), base: path.basename(file).replace(/\.(ts|js|mts|mjs)$/, '') };
}

const typeOnly = (node) =>
  node.importKind === 'type' ||
  node.exportKind === 'type' ||
  (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));

const moduleBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: "Server modules import each other only through schema.ts, public.ts or their services' types; stores stay in their module, out of routes." },
    schema: [],
    messages: {
      otherStore: "'{{spec}}' is the {{target}} module's store: another module's data comes through its service (handed in by the container).",
      routeStore: 'Routes parse, call their service and answer; they never import a store.',
      otherModule:
        "'{{spec}}' is inside the {{target}} module: another module is reached only through its schema.ts or public.ts, or `import type` from its services (for ports).",
      serviceValue: "'{{spec}}' is the {{target}} module's service: import its type only; the instance comes through ports.",
    },
  },
  create(context) {
    const root = context.cwd;
    const file = context.physicalFilename;
    const here = moduleOf(file, root);
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = moduleOf(path.resolve(path.dirname(file), spec), root);
      if (!target) return;
      const data = { spec, target: target.module };
      if (STORE.test(target.base)) {
        if (!here || here.module !== target.module) context.report({ node, messageId: 'otherStore', data });
        else if (!here.rest.includes('/') && ROUTE_SIDE.test(here.base)) context.report({ node, messageId: 'routeStore', data });
        return;
      }
      if (!here || here.module === target.module) return;
      if (target.rest.includes('/')) return context.report({ node, messageId: 'otherModule', data });
      if (PUBLIC.test(target.base)) return;
      if (SERVICE.test(target.base)) {
        if (!typeOnly(node)) context.report({ node, messageId: 'serviceValue', data });
        return;
      }
      context.report({ node, messageId: 'otherModule', data });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: (node) => check({ ...node, source: node.source, specifiers: [] }),
    };
  },
};

export default { rules: { 'module-boundaries': moduleBoundaries } };
