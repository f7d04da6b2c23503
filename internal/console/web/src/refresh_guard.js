// Deferred refresh (console.md, rule 3). A whole-page refresh (a
// Turbo refresh stream, rendered as a morph) waits while a form on the page
// is dirty (a text field differs from its default), has a text field
// focused, or is submitting. It is applied as soon as none is.
import { session } from "@hotwired/turbo";
import { dispatch } from "./events";

const submitting = new Set();
let pending = false;

function textFields(form) {
  return Array.from(form.elements).filter(
    (el) => (el instanceof HTMLInputElement && !["hidden", "submit", "button", "checkbox", "radio"].includes(el.type)) || el instanceof HTMLTextAreaElement,
  );
}

function formBusy(form) {
  if (submitting.has(form)) return true;
  return textFields(form).some((el) => el.value !== el.defaultValue || el === document.activeElement);
}

export function anyFormBusy() {
  return Array.from(document.forms).some(formBusy) || Array.from(submitting).some((f) => f.isConnected);
}

function applyIfIdle() {
  if (!pending || anyFormBusy()) return;
  pending = false;
  dispatch("fibe:refresh-applied", {});
  session.refresh(window.location.href);
}

// check runs after the event that may have freed the page has settled
// (focus moves after focusout, a reset clears fields after the event).
function check() {
  setTimeout(applyIfIdle, 0);
}

export function installRefreshGuard() {
  document.addEventListener("turbo:before-stream-render", (event) => {
    const stream = event.target;
    if (stream.getAttribute("action") !== "refresh") return;
    if (!anyFormBusy()) return;
    event.detail.render = () => {};
    pending = true;
    dispatch("fibe:refresh-deferred", {});
  });
  document.addEventListener("turbo:submit-start", (event) => submitting.add(event.target));
  document.addEventListener("turbo:submit-end", (event) => {
    submitting.delete(event.target);
    check();
  });
  document.addEventListener("focusout", check);
  document.addEventListener("reset", check);
  document.addEventListener("input", check);
  document.addEventListener("turbo:load", () => {
    submitting.clear();
    check();
  });
}
