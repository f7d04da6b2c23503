// #terminal: an interactive shell in the playground, xterm.js over the
// terminal channel relayed by the console. The scrollback survives a
// recovery: the same xterm instance writes the new session's output.
import { Controller } from "@hotwired/stimulus";
import { Terminal } from "@xterm/xterm";
import { StreamConnection } from "../stream";

export default class extends Controller {
  static targets = ["screen", "status"];
  static values = { url: String };

  connect() {
    this.term = new Terminal({ cols: 100, rows: 20, convertEol: true, fontSize: 13, scrollback: 5000 });
    this.term.open(this.screenTarget);
    this.term.onData((data) => this.stream.send({ action: "input", data }));
    this.stream = new StreamConnection(this.element, "terminal", () => this.streamURL(), {
      onMessage: (m) => this.message(m),
      onState: (s, why) => this.status(s, why),
    });
    this.stream.start();
  }

  disconnect() {
    this.stream.stop();
    this.term.dispose();
  }

  streamURL() {
    const sep = this.urlValue.includes("?") ? "&" : "?";
    return `${this.urlValue}${sep}cols=${this.term.cols}&rows=${this.term.rows}`;
  }

  message(m) {
    if (m.type === "output" && typeof m.data === "string") this.term.write(m.data);
    else if (m.type === "exit") {
      this.term.write(`\r\n[exited with code ${m.code}; reload the page for a new shell]\r\n`);
      this.stream.stop(); // a shell that exited is not reconnected
    }
  }

  status(s, why) {
    if (this.hasStatusTarget) this.statusTarget.textContent = why ? `${s}: ${why}` : s;
    if (s === "rejected") this.term.write("The API refused a terminal for this playground.\r\n");
    else if (s === "error") this.term.write(`\r\n[${why || "connection closed"}]\r\n`);
    else if (s === "reconnecting" && why) this.term.write(`\r\n[${why}; reconnecting]\r\n`);
  }
}
