// #logs: followed log lines of the playground. Lines survive a recovery:
// the reconnect asks for every line after the last one shown.
import { Controller } from "@hotwired/stimulus";
import { StreamConnection } from "../stream";

const maxLines = 2000;

export default class extends Controller {
  static targets = ["output", "status"];
  static values = { url: String };

  connect() {
    this.lastSeq = null;
    this.stream = new StreamConnection(this.element, "logs", () => this.streamURL(), {
      onMessage: (m) => this.line(m),
      onState: (s, why) => this.status(s, why),
    });
    this.stream.start();
  }

  disconnect() {
    this.stream.stop();
  }

  streamURL() {
    const q = this.lastSeq === null ? "tail=50" : `since=${this.lastSeq}`;
    return `${this.urlValue}${this.urlValue.includes("?") ? "&" : "?"}${q}`;
  }

  // line shows one log line; true when it was new (progress of the stream).
  line(m) {
    if (m.type !== "log") return false;
    if (typeof m.seq === "number") {
      if (this.lastSeq !== null && m.seq <= this.lastSeq) return false;
      this.lastSeq = m.seq;
    }
    const div = document.createElement("div");
    div.className = "log-line";
    if (typeof m.seq === "number") div.dataset.seq = String(m.seq);
    div.textContent = (m.service ? `${m.service} | ` : "") + (m.line || "");
    const out = this.outputTarget;
    const stick = out.scrollTop + out.clientHeight >= out.scrollHeight - 4;
    out.append(div);
    while (out.childElementCount > maxLines) out.firstElementChild.remove();
    if (stick) out.scrollTop = out.scrollHeight;
    return true;
  }

  status(s, why) {
    if (this.hasStatusTarget) this.statusTarget.textContent = why ? `${s}: ${why}` : s;
  }
}
