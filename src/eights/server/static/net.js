// The table's WebSocket: numbered messages, hello on every (re)connection,
// reconnection with exponential backoff when the connection drops, and a
// liveness check: a connection that goes silent (its server hung, say stopped,
// while the proxy keeps the tunnel open) is noticed within seconds and replaced,
// without waiting for a close that may never come.

/** Milliseconds of silence after which the page asks the server for a pong. */
export const QUIET = 5000;
/** Milliseconds the server has to answer (any message counts) before the connection is taken
 * for dead; a new connection goes through the proxy to whoever runs the table now. */
export const DEADLINE = 3000;
/** Milliseconds a new connection has to open before it is given up and tried again. */
export const OPENING = 6000;

export class TableSocket {
  /**
   * @param {string} code the table's invite code
   * @param {{token: string|null, lang: string, onEvent: Function, onStatus: Function}} options
   */
  constructor(code, { token, lang, onEvent, onStatus }) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tables/${encodeURIComponent(code)}`;
    this.token = token;
    this.lang = lang;
    this.onEvent = onEvent;
    this.onStatus = onStatus;
    this.ws = null;
    this.seq = 0;
    this.attempt = 0;
    this.stopped = false;
    this.retryTimer = null;
    this.pulse = null;
    this.heard = 0; // when the last message (or the opening) came
    this.asked = 0; // when a ping waiting for its answer was sent, else 0
    this.opened = 0; // connections opened so far (tests and benchmarks read it)
    window.addEventListener("online", () => this.retryNow());
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.seq = 0; // seq counts per connection
    const ws = new WebSocket(this.url);
    this.ws = ws;
    this.heard = Date.now();
    this.asked = 0;
    clearInterval(this.pulse);
    this.pulse = setInterval(() => this.check(ws), 500);
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      this.attempt = 0;
      this.opened += 1;
      this.heard = Date.now();
      this.hello();
      this.onStatus("open");
    });
    ws.addEventListener("message", (event) => {
      if (ws !== this.ws) return;
      this.heard = Date.now();
      this.asked = 0;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onEvent(message);
    });
    ws.addEventListener("close", (event) => {
      if (ws !== this.ws) return;
      this.lost(event);
    });
  }

  /** The connection is gone (closed, or given up for silence): try again after a backoff. */
  lost(event) {
    clearInterval(this.pulse);
    this.ws = null;
    if (this.stopped) return;
    this.onStatus("closed", event);
    if (this.stopped) return; // the page decided not to come back (the table is closed)
    const delay = Math.min(10000, 500 * 2 ** this.attempt) * (0.75 + Math.random() / 2);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Every half second: ping a quiet connection, and give up one that does not answer (or
   * does not open) in time: its server may be hung behind a proxy that keeps the tunnel. */
  check(ws) {
    if (ws !== this.ws || this.stopped) return;
    const now = Date.now();
    if (ws.readyState === WebSocket.CONNECTING) {
      if (now - this.heard > OPENING) this.giveUp(ws, "no answer to the connection");
    } else if (ws.readyState === WebSocket.OPEN) {
      if (this.asked && now - this.asked > DEADLINE) {
        this.giveUp(ws, "no answer to a ping");
      } else if (!this.asked && now - this.heard > QUIET) {
        this.asked = now;
        this.send("ping");
      }
    }
  }

  /** Leave a silent connection at once (its close may never come) and connect again. */
  giveUp(ws, reason) {
    this.ws = null; // its events, if any ever come, are ignored
    try {
      ws.close(4000, reason);
    } catch {
      // closing a connection that never opened may throw: it is dropped all the same
    }
    this.lost({ code: 4000, reason });
  }

  /** Reconnect at once (the network is back), if a retry is waiting. */
  retryNow() {
    if (!this.stopped && this.ws === null && this.retryTimer !== null) this.connect();
  }

  hello() {
    const fields = { lang: this.lang };
    if (this.token) fields.token = this.token;
    this.send("hello", fields);
  }

  /** Send a message; false when the connection is not open (the page waits for it). */
  send(type, fields = {}) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.seq += 1;
    this.ws.send(JSON.stringify({ type, seq: this.seq, ...fields }));
    return true;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pulse);
    if (this.ws) this.ws.close(1000);
  }
}
