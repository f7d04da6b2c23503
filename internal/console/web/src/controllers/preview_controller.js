// The preview pane's iframe: marks it ready (data-ready, data-ready-version)
// once its first load fired, and renews the version when its URL changes,
// which makes it a protected iframe (see preview_guard.js).
import { Controller } from "@hotwired/stimulus";

let versions = 0;

export default class extends Controller {
  connect() {
    this.onLoad = () => this.loaded();
    this.element.addEventListener("load", this.onLoad);
    // A morph that changes src drops the ready marks; the next load sets them.
    this.observer = new MutationObserver(() => {
      if (this.element.getAttribute("src") !== this.loadedSrc) this.element.dataset.ready = "false";
    });
    this.observer.observe(this.element, { attributes: true, attributeFilter: ["src"] });
    // The bundle loads async: the first load may have fired already.
    if (this.alreadyLoaded()) this.loaded();
  }

  // The page's head records each iframe load (the frame's document is of
  // another origin, so its readyState cannot be read from here).
  alreadyLoaded() {
    const src = this.element.getAttribute("src") || "";
    return src !== "" && this.element.fibeLoadedSrc === src;
  }

  disconnect() {
    this.element.removeEventListener("load", this.onLoad);
    this.observer.disconnect();
  }

  loaded() {
    const src = this.element.getAttribute("src") || "";
    if (src === "" || src === "about:blank") return;
    if (this.loadedSrc !== src || this.element.dataset.ready !== "true") {
      versions += 1;
      this.element.dataset.readyVersion = `${Date.now().toString(36)}-${versions}`;
    }
    this.loadedSrc = src;
    this.element.dataset.ready = "true";
    this.element.dataset.sessionProtected = "true";
  }
}
