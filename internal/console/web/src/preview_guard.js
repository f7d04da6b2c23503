// The protected iframe (console.md, rule 2). A morph, frame render or
// stream update whose new content holds the same iframe (same id, same src)
// must not touch it: the swap is cancelled for that element and one
// fibe:protected-stream-blocked is dispatched per blocked update. Streams
// and frames that would replace the iframe's container are rendered as a
// morph instead, so that the iframe element stays where it is (moving an
// iframe in the DOM reloads it) and panes the page lacks are inserted in
// place.
import { morphElements, morphChildren } from "@hotwired/turbo";
import { dispatch } from "./events";

// What is rendering now: stream or frame inside withSource, else a morph
// (a page refresh, or a morph stream of Turbo's own).
let source = "morph";
let blocked = null; // ids blocked during the current update

export function isProtected(el) {
  return (
    el instanceof HTMLIFrameElement &&
    el.dataset.ready === "true" &&
    el.dataset.sessionProtected === "true" &&
    (el.dataset.readyVersion || "") !== ""
  );
}

function protectedFrames(root) {
  const found = [];
  if (root instanceof HTMLIFrameElement && isProtected(root)) found.push(root);
  if (root && root.querySelectorAll) root.querySelectorAll("iframe").forEach((f) => isProtected(f) && found.push(f));
  return found;
}

function sameFrameIn(content, frame) {
  if (!frame.id) return null;
  const root = content instanceof DocumentFragment || content instanceof Element ? content : null;
  if (!root) return null;
  const candidate = root.querySelector ? root.querySelector(`iframe#${CSS.escape(frame.id)}`) : null;
  if (candidate) return candidate;
  return root instanceof Element && root.id === frame.id ? root : null;
}

function sameSrc(current, next) {
  return next instanceof HTMLIFrameElement && (next.getAttribute("src") || "") === (current.getAttribute("src") || "");
}

// withSource renders under a source name and reports each blocked iframe
// once for the update.
function withSource(name, render) {
  const outer = [source, blocked];
  source = name;
  blocked = new Set();
  try {
    render();
  } finally {
    [source, blocked] = outer;
  }
}

function block(frame) {
  if (blocked && blocked.has(frame.id)) return;
  if (blocked) blocked.add(frame.id);
  dispatch("fibe:protected-stream-blocked", { id: frame.id, src: frame.getAttribute("src"), source });
}

export function installPreviewGuard() {
  // Every morph (page refresh, morph streams, and the renders below) asks
  // before touching an element.
  document.addEventListener("turbo:before-morph-element", (event) => {
    const current = event.target;
    const next = event.detail && event.detail.newElement;
    if (!isProtected(current) || !sameSrc(current, next)) return;
    event.preventDefault();
    if (blocked) block(current);
    else withSource(source, () => block(current));
  });

  // Streams: replace/update of an element holding a protected iframe that
  // the new content keeps (same id, same src) becomes a morph.
  document.addEventListener("turbo:before-stream-render", (event) => {
    const stream = event.target;
    const action = stream.getAttribute("action");
    if (action !== "replace" && action !== "update") return;
    const targets = stream.targetElements || [];
    const content = stream.templateContent;
    const guarded = targets.some((t) => protectedFrames(t).some((f) => sameSrcIn(content, f)));
    if (!guarded) return;
    event.detail.render = (el) => {
      withSource("stream", () => {
        const fresh = el.templateContent;
        el.targetElements.forEach((target) => {
          if (action === "replace") {
            const first = firstElement(fresh);
            if (first) morphElements(target, first);
          } else {
            morphChildren(target, wrap(fresh));
          }
        });
      });
    };
  });

  // Frames: a frame render that keeps the protected iframe becomes a morph
  // of the frame's children.
  document.addEventListener("turbo:before-frame-render", (event) => {
    const frame = event.target;
    const next = event.detail.newFrame;
    if (!protectedFrames(frame).some((f) => sameSrcIn(next, f))) return;
    event.detail.render = (current, fresh) => {
      withSource("frame", () => morphChildren(current, fresh));
    };
  });
}

function sameSrcIn(content, frame) {
  return sameSrc(frame, sameFrameIn(content, frame));
}

function firstElement(fragment) {
  for (const n of fragment.childNodes) if (n.nodeType === Node.ELEMENT_NODE) return n;
  return null;
}

function wrap(fragment) {
  const div = document.createElement("div");
  div.append(fragment);
  return div;
}
