// StreamConnection is a browser-side stream over the console's relay: the
// console's server side holds one API cable connection per browser
// connection and never recovers on its own. This class makes the one-shot
// recovery of contract §7: on session_expired it makes exactly one
// recovery (fresh stream URL from the console, reconnect, resubscribe) and
// sets an "already tried" flag; further expiries are ignored while it is
// set; only a confirmed subscription clears it.
import { dispatch } from "./events";

const baseDelay = 500; // ms
const maxDelay = 15000;
const maxDrops = 5;

export class StreamConnection {
  // element carries data-recoveries; urlFor() returns the console's stream
  // URL endpoint (query included); handlers: onMessage(msg), onState(state).
  constructor(element, name, urlFor, handlers) {
    this.element = element;
    this.name = name;
    this.urlFor = urlFor;
    this.handlers = handlers;
    this.recoveries = 0;
    this.tried = false;
    this.closed = false;
    this.ws = null;
    this.drops = 0; // reconnects after drops since the last confirmed subscription
    this.timer = null;
    this.element.dataset.recoveries = "0";
  }

  start() {
    this.open();
  }

  stop() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
    this.ws = null;
  }

  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(obj));
  }

  async open() {
    if (this.opening) return; // a connection is on its way
    this.opening = true;
    try {
      await this.connect();
    } finally {
      this.opening = false;
    }
  }

  async connect() {
    this.state("connecting");
    let url;
    try {
      const res = await fetch(this.urlFor(), { headers: { Accept: "application/json" }, credentials: "same-origin" });
      const body = await res.json();
      if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
      url = body.url;
    } catch (err) {
      this.state("error", String(err.message || err));
      this.dropped();
      return;
    }
    if (this.closed) return;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onmessage = (e) => {
      if (ws !== this.ws) return; // a retired connection
      let frame;
      try {
        frame = JSON.parse(e.data);
      } catch {
        return;
      }
      this.frame(frame);
    };
    ws.onclose = () => {
      if (ws !== this.ws || this.closed) return;
      this.ws = null;
      if (this.element.dataset.state !== "error") this.state("closed");
      if (this.element.dataset.state !== "rejected") this.dropped();
    };
  }

  frame(f) {
    switch (f.type) {
      case "confirm":
        this.drops = 0;
        this.state("live");
        if (this.tried) {
          this.tried = false;
          dispatch("fibe:stream-recovered", { stream: this.name, recoveries: this.recoveries });
        }
        break;
      case "reject":
        this.state("rejected", f.error || "");
        break;
      case "error":
        this.state("error", f.error || "");
        break;
      case "message":
        if (isExpired(f.message)) this.expired();
        else this.handlers.onMessage(f.message);
        break;
    }
  }

  // dropped reconnects after a lost connection (not an expiry), as the
  // contract reconnects a dropped stream: full-jitter exponential backoff,
  // and a bounded number of attempts until a subscription is confirmed.
  dropped() {
    if (this.closed || this.drops >= maxDrops) return;
    const delay = Math.random() * Math.min(maxDelay, baseDelay * 2 ** this.drops);
    this.drops += 1;
    this.state("reconnecting");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (!this.closed && !this.ws) this.open();
    }, delay);
  }

  expired() {
    if (this.tried) return; // one expiry, one attempt
    this.tried = true;
    this.recoveries += 1;
    this.element.dataset.recoveries = String(this.recoveries);
    dispatch("fibe:stream-recovery", { stream: this.name, recoveries: this.recoveries });
    const old = this.ws;
    this.ws = null;
    if (old) old.close();
    this.open();
  }

  state(s, why = "") {
    this.element.dataset.state = s;
    if (this.handlers.onState) this.handlers.onState(s, why);
  }
}

function isExpired(m) {
  return m && m.status === "session_expired" && (m.type === undefined || m.type === "status");
}
