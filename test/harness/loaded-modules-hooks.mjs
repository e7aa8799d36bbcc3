// The load hook of loaded-modules.mjs: tells the main thread each module URL as it is loaded.
let port;

export function initialize(data) {
  port = data.port;
}

export async function load(url, context, next) {
  port?.postMessage(url);
  return next(url, context);
}
