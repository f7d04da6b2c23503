// SharedEventSource shares one Server-Sent Events connection per URL among
// all the tabs of this origin. A browser holds at most six HTTP/1.1
// connections per host, and every open tab's <turbo-stream-source> keeps
// one busy: without sharing, a seventh tab of the console would hang. One
// tab (the holder of a Web Lock named after the URL) opens the real
// EventSource and forwards each message to the others over a
// BroadcastChannel; when it closes, the next tab in line takes over (the
// console sends a newcomer the current state). Turbo's
// <turbo-stream-source> constructs `new EventSource(src)`, so installing
// this class as window.EventSource is all it takes.
const NativeEventSource = window.EventSource;

class SharedEventSource extends EventTarget {
  constructor(url, init) {
    super();
    this.url = new URL(url, window.location.href).href;
    this.withCredentials = !!(init && init.withCredentials);
    this.readyState = 0;
    this.onmessage = null;
    const name = "fibe-sse:" + this.url;
    this.channel = new BroadcastChannel(name);
    this.channel.onmessage = (e) => this.deliver(e.data);
    this.abort = new AbortController();
    // A page being left gives its stream up at once (another tab takes
    // over), even if the browser keeps the document around for a while.
    this.onPageHide = () => this.close();
    window.addEventListener("pagehide", this.onPageHide);
    navigator.locks
      .request(name, { signal: this.abort.signal }, () => this.lead())
      .catch(() => {}); // aborted by close() while waiting
  }

  // lead holds the lock (the returned promise) while this tab serves.
  lead() {
    return new Promise((release) => {
      this.release = release;
      if (this.readyState === 2) return release();
      const es = new NativeEventSource(this.url, { withCredentials: this.withCredentials });
      this.source = es;
      es.onopen = () => {
        this.readyState = 1;
        this.dispatchEvent(new Event("open"));
      };
      es.onmessage = (e) => {
        this.channel.postMessage(e.data);
        this.deliver(e.data);
      };
    });
  }

  deliver(data) {
    if (this.readyState === 2) return;
    const event = new MessageEvent("message", { data });
    if (typeof this.onmessage === "function") this.onmessage(event);
    this.dispatchEvent(event);
  }

  close() {
    if (this.readyState === 2) return;
    window.removeEventListener("pagehide", this.onPageHide);
    this.readyState = 2;
    this.abort.abort();
    if (this.source) this.source.close();
    if (this.release) this.release();
    this.channel.close();
  }
}

if (NativeEventSource && window.BroadcastChannel && navigator.locks) {
  window.EventSource = SharedEventSource;
  // Restored from the back/forward cache: its streams were given up.
  window.addEventListener("pageshow", (e) => {
    if (e.persisted) window.location.reload();
  });
}
