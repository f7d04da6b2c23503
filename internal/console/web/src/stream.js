// StreamConnection is a browser-side stream over the console's relay: the
// console's server side holds one API cable connection per browser
// connection and never recovers on its own. This class makes the one-shot
// recovery of contract §7: on session_expired it makes exactly one
// recovery (fresh stream URL from the console, reconnect, resubscribe) and
// sets an "already tried" flag; further expiries are ignored while it is
// set; only a confirmed subscription clears it.
//
// Every API connection the relay opens for it is admitted by the
// marquee's breaker and counted on the stream's retry budget on the
// console's side (the stream's id, sent back with every stream URL asked
// for, ties the reopens together): the relay waits the backoff, and ends
// the stream with the error the CLI gives (CIRCUIT_OPEN, the spent
// budget's) as a final "error" frame. This class keeps its own count of
// reconnects as well, for the connection to the console itself: like the
// CLI's budget it is not reset by a confirmed subscription, only by
// progress (a confirmed subscription that stayed up one ping interval, or
// a handler's message that moved the stream, such as a log line).
// Liveness: the relay pings twice per interval; two intervals without a
// frame are a drop.
import { dispatch } from "./events";

const baseDelay = 500; // ms
const maxDelay = 15000;
const defaultInterval = 3000; // ms, until the relay names it
const defaultRetries = 3; // the CLI's budget, until the relay names it

export class StreamConnection {
  // element carries data-recoveries; urlFor() returns the console's stream
  // URL endpoint (query included); handlers: onMessage(msg) (true when the
  // message moved the stream forward), onState(state, why).
  constructor(element, name, urlFor, handlers) {
    this.element = element;
    this.name = name;
    this.urlFor = urlFor;
    this.handlers = handlers;
    this.recoveries = 0;
    this.tried = false;
    this.closed = false;
    this.ws = null;
    this.streamID = ""; // the console's id of this stream, across connections
    this.drops = 0; // reconnects since the stream last made progress
    this.retries = defaultRetries;
    this.interval = defaultInterval;
    this.beat = 0; // when the current connection last showed life
    this.timer = null;
    this.healthy = null;
    this.watch = null;
    this.element.dataset.recoveries = "0";
  }

  start() {
    this.open();
  }

  stop() {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.healthy);
    clearInterval(this.watch);
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
      let endpoint = this.urlFor();
      if (this.streamID) endpoint += `&stream=${encodeURIComponent(this.streamID)}`;
      const res = await fetch(endpoint, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      const body = await res.json();
      if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
      url = body.url;
      if (body.stream) this.streamID = body.stream;
    } catch (err) {
      this.why = String(err.message || err);
      this.dropped(false);
      return;
    }
    if (this.closed) return;
    const ws = new WebSocket(url);
    this.ws = ws;
    this.told = null; // how the relay said this connection ended
    this.why = "";
    this.beat = Date.now();
    this.watchLiveness(ws);
    ws.onmessage = (e) => {
      if (ws !== this.ws) return; // a retired connection
      this.beat = Date.now();
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
      clearTimeout(this.healthy);
      if (this.told === "final") return;
      // Told by the relay: it waits the backoff itself. Otherwise the
      // console could not be reached: back off here.
      this.dropped(this.told === "retry");
    };
  }

  frame(f) {
    switch (f.type) {
      case "confirm":
        if (f.interval > 0) this.interval = f.interval;
        if (f.retries >= 0 && f.retries !== undefined) this.retries = f.retries;
        this.state("live");
        this.healthyAfter(this.ws);
        if (this.tried) {
          this.tried = false;
          dispatch("fibe:stream-recovered", { stream: this.name, recoveries: this.recoveries });
        }
        break;
      case "ping":
        if (f.interval > 0) this.interval = f.interval;
        break;
      case "reject":
        this.told = "final";
        this.end("rejected", f.code, f.error);
        break;
      case "error":
        // final: the stream is over, with the error the CLI gives (the
        // state "error" is only ever final); else the relay lost the API
        // connection and the next one is asked for at once.
        this.told = f.final ? "final" : "retry";
        if (f.final) this.end("error", f.code, f.error);
        else this.why = f.error || "";
        break;
      case "message":
        if (isExpired(f.message)) this.expired();
        else if (this.handlers.onMessage(f.message) && this.element.dataset.state === "live") this.drops = 0;
        break;
    }
  }

  // healthyAfter: a subscription that stays up one ping interval is
  // progress, as the CLI's keeper counts it; a confirmation alone is not.
  healthyAfter(ws) {
    clearTimeout(this.healthy);
    this.healthy = setTimeout(() => {
      if (ws === this.ws && !this.closed && this.element.dataset.state === "live") this.drops = 0;
    }, this.interval);
  }

  // watchLiveness treats two ping intervals without a frame from the
  // relay as a drop. A check that itself ran late (a busy machine, a
  // throttled tab) judges nothing: the frames may be queued behind it.
  watchLiveness(ws) {
    clearInterval(this.watch);
    let last = Date.now();
    this.watch = setInterval(() => {
      if (ws !== this.ws || this.closed) {
        clearInterval(this.watch);
        return;
      }
      const now = Date.now();
      const late = now - last > this.interval / 2;
      last = now;
      if (late || now - this.beat <= 2 * this.interval) return;
      clearInterval(this.watch);
      this.why = `nothing from the console for two ping intervals (${(2 * this.interval) / 1000}s)`;
      ws.close(); // onclose reconnects
    }, Math.max(this.interval / 4, 50));
  }

  // dropped reconnects after a lost connection (not an expiry), as the
  // contract reconnects a dropped stream. The count is kept across
  // confirmations; past the budget the stream ends. told: the relay said
  // the API connection was lost and waits the backoff itself; otherwise
  // the wait is here (full-jitter exponential backoff).
  dropped(told) {
    if (this.closed) return;
    // One reconnect more than the budget: the relay's answer to it says
    // whether the budget is spent, with the CLI's error.
    if (this.drops > this.retries) {
      this.end("error", "", `stream lost after ${this.drops} reconnects without progress (last: ${this.why || "connection closed"})`);
      return;
    }
    const delay = told ? 0 : Math.random() * Math.min(maxDelay, baseDelay * 2 ** this.drops);
    this.drops += 1;
    this.state("reconnecting", this.why || "");
    this.why = "";
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
    clearTimeout(this.healthy);
    if (old) old.close();
    this.open();
  }

  // end ends the stream for good: state is "error" or "rejected", code the
  // error's code (data-code), why its line.
  end(state, code, why) {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.healthy);
    clearInterval(this.watch);
    this.element.dataset.code = code || "";
    this.state(state, why || "");
  }

  state(s, why = "") {
    this.element.dataset.state = s;
    if (this.handlers.onState) this.handlers.onState(s, why);
  }
}

function isExpired(m) {
  return m && m.status === "session_expired" && (m.type === undefined || m.type === "status");
}
