// The page's own connection (src/eights/server/static/net.js) outside the browser, for the
// benchmarks: one TableSocket per table code, watching (no token), as a spectator's page
// does. Each event is printed as one JSON line: {"t": seconds since the epoch, "code",
// "kind": "open" | "closed" | "state" | ..., "version"?}.
//
//   node --experimental-websocket benchmarks/net_client.mjs http://127.0.0.1:8000 CODE...
//
// Node 20.10 or later (its WebSocket). It runs until stdin closes or it is killed.

import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";

const [base, ...codes] = process.argv.slice(2);
const url = new URL(base);
globalThis.location = { protocol: url.protocol, host: url.host };
globalThis.window = { addEventListener() {} };

const here = dirname(fileURLToPath(import.meta.url));
const { TableSocket } = await import(
  pathToFileURL(join(here, "..", "src", "eights", "server", "static", "net.js")).href);

const say = (fields) => process.stdout.write(JSON.stringify({ t: Date.now() / 1000, ...fields }) + "\n");

for (const code of codes) {
  const socket = new TableSocket(code, {
    token: null,
    lang: "en",
    onEvent: (message) => say({ code, kind: message.type, version: message.version }),
    onStatus: (status, event) => say({ code, kind: status, close: event ? event.code : null }),
  });
  socket.connect();
}
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
