// Stale renders never win. An element that carries data-seq (the
// #operation pane: the server counts every change of its operations) is
// only replaced or morphed by content of the same id with a seq at least as
// high. Its updates come two ways, over the page's event stream and inside
// a whole page fetched for a refresh, and a refresh's page may have been
// rendered before the last streamed update arrived: without this guard the
// pane would go back to an earlier state and stay there.
function older(current, next) {
  if (!(current instanceof Element) || !(next instanceof Element)) return false;
  if (!current.id || current.id !== next.id) return false;
  const a = Number(current.dataset.seq);
  const b = Number(next.dataset.seq);
  return Number.isFinite(a) && Number.isFinite(b) && b < a;
}

function firstElement(fragment) {
  for (const n of fragment.childNodes) if (n.nodeType === Node.ELEMENT_NODE) return n;
  return null;
}

export function installOrderGuard() {
  document.addEventListener("turbo:before-morph-element", (event) => {
    if (older(event.target, event.detail && event.detail.newElement)) event.preventDefault();
  });
  document.addEventListener("turbo:before-stream-render", (event) => {
    const stream = event.target;
    // A morph stream asks before-morph-element, above.
    if (stream.getAttribute("action") !== "replace" || stream.getAttribute("method") === "morph") return;
    const next = firstElement(stream.templateContent);
    const targets = stream.targetElements || [];
    if (targets.length > 0 && targets.every((t) => older(t, next))) event.detail.render = () => {};
  });
}
