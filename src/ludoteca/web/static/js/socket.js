// One websocket to a table (docs/protocol.md): hello with the seat token (and the seat's commitment
// to its seed for the deal, from table/deal.js, while the table takes one), reconnect with
// backoff when the connection drops, and hello again so the same seat resumes. The hello waits
// for the commitment's hash, so what the page sends while the connection opens or the hash is
// made waits for the hello and follows it (the server takes nothing before it). LobbySocket is the same connection to the lobby feed, which needs no
// hello.

const MAX_DELAY = 10_000;

function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}${path}`;
}

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {() => string | null} token  read on every (re)connect
   * @param {{message: Function, status: Function, commitment?: Function}} handlers
   */
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.ws = null;
    this.said = null; // the connection that has said its hello: sends go out at once from then on
    this.pending = []; // what was sent while connecting or before the hello went out
    this.attempts = 0;
    this.timer = null;
    this.closed = false;
    this.wake = () => {
      if (!this.closed && (!this.ws || this.ws.readyState > 1)) this.reconnectNow();
    };
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
  }

  url() {
    return socketUrl(`/ws/tables/${encodeURIComponent(this.tableId)}`);
  }

  /** The hello, or a promise of it: with a token, the seat's commitment too when the handlers
   * give one (`commitment`, a promise of it or of null). */
  greeting() {
    const token = this.token();
    if (!token) return { type: "hello" };
    const commitment = this.handlers.commitment ? this.handlers.commitment() : null;
    return Promise.resolve(commitment).then(
      (found) => (found ? { type: "hello", token, commitment: found } : { type: "hello", token }),
      () => ({ type: "hello", token }),
    );
  }

  /** The connection table/early.js opened to this address while the page loaded, once, if it
   * is still open or opening: {ws, heard (its messages so far), hello (a promise of the hello it
   * says on opening)}; it said hello when it opened.
   * Leaves null behind: early.js, if it runs only now, opens nothing. */
  adopt() {
    const early = window.__ludotecaEarlySocket;
    window.__ludotecaEarlySocket = null;
    if (!early || early.url !== this.url()) {
      if (early) early.ws.close(); // another table's: never adopted
      return null;
    }
    return early.ws.readyState <= WebSocket.OPEN ? early : null;
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.handlers.status(this.attempts ? "reconnecting" : "connecting");
    const early = this.attempts ? null : this.adopt();
    const ws = early ? early.ws : new WebSocket(this.url());
    this.ws = ws;
    this.said = null;
    this.pending = [];
    // once `hello` has gone out on this connection, what waited for it follows, in order
    const after = (hello) =>
      hello.then(() => {
        if (this.ws !== ws) return;
        this.said = ws;
        for (const message of this.pending.splice(0)) if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
      });
    ws.onopen = () => {
      this.attempts = 0;
      // an early connection adopted before it opened says early.js's hello; else this one's
      after(
        Promise.resolve(early && early.hello ? early.hello : this.greeting()).then((greeting) => {
          if (greeting && this.ws === ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(greeting));
        }),
      );
      this.handlers.status("open");
    };
    ws.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.handlers.message(message);
    };
    ws.onclose = () => {
      if (this.ws !== ws || this.closed) return;
      this.attempts += 1;
      const delay = Math.min(MAX_DELAY, 400 * 2 ** (this.attempts - 1)) * (0.75 + Math.random() / 2);
      this.handlers.status("reconnecting");
      this.timer = setTimeout(() => this.connect(), delay);
    };
    ws.onerror = () => {
      // onclose follows and schedules the retry
    };
    if (early && ws.readyState === WebSocket.OPEN) {
      // it says hello once its hash is made (early.js's own reaction to the same promise, queued
      // before this one): what the page sends waits for that; what it heard since, in order, as
      // if heard now
      after(Promise.resolve(early.hello));
      this.attempts = 0;
      this.handlers.status("open");
      for (const event of early.heard) ws.onmessage(event);
    }
  }

  reconnectNow() {
    clearTimeout(this.timer);
    if (this.ws) {
      this.ws.onclose = null;
      if (this.ws.readyState <= 1) this.ws.close();
    }
    this.connect();
  }

  send(message) {
    if (!this.ws || this.ws.readyState > WebSocket.OPEN) return false; // down: the page says so
    if (this.said === this.ws) this.ws.send(JSON.stringify(message));
    else this.pending.push(message); // connecting, or the hello on its way: this follows it
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
    }
  }
}

/** The lobby feed (/ws/lobby): the list of open tables, sent again whenever it changes. */
export class LobbySocket extends TableSocket {
  /** `looking`: the counts of people looking come too ({type: "looking"}). */
  constructor(handlers, looking = false) {
    super("", () => null, handlers);
    this.looking = looking;
  }

  url() {
    return socketUrl(this.looking ? "/ws/lobby?looking=true" : "/ws/lobby");
  }

  greeting() {
    return null;
  }
}
