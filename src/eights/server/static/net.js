// The table's WebSocket: numbered messages, hello on every (re)connection,
// and reconnection with exponential backoff when the connection drops.

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
    this.pingTimer = null;
    window.addEventListener("online", () => this.retryNow());
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.seq = 0; // seq counts per connection
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.hello();
      this.onStatus("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send("ping"), 25000);
    });
    ws.addEventListener("message", (event) => {
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
      clearInterval(this.pingTimer);
      if (this.stopped) return;
      this.onStatus("closed", event);
      if (this.stopped) return; // the page decided not to come back (the table is closed)
      const delay = Math.min(10000, 500 * 2 ** this.attempt) * (0.75 + Math.random() / 2);
      this.attempt += 1;
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
  }

  /** Reconnect at once (the network is back), if a retry is waiting. */
  retryNow() {
    if (!this.stopped && this.ws && this.ws.readyState === WebSocket.CLOSED) this.connect();
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
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close(1000);
  }
}
