// Serves one file over HTTP on 127.0.0.1 for the download benchmark, in its own process so that
// neither curl nor Hearth shares a CPU thread with it. Prints the URL on stdout.
import { FakeFileServer } from '../test/fakes/file-server.js';

const file = process.argv[2];
if (!file) throw new Error('usage: file-server-child <file>');
const server = await new FakeFileServer().start();
console.log(server.addFile('bench.bin', file));
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
