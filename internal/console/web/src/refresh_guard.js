// Deferred refresh (console.md, rule 3). A whole-page refresh (a
// Turbo refresh stream, rendered as a morph) waits while a form on the page
// is dirty (a text field differs from its default), has a text field
// focused, or is submitting. It is applied as soon as none is.
//
// Every refresh stream is handled here, not by Turbo's own action: Turbo
// drops a refresh that arrives while a visit is in progress (a page
// refresh being fetched or rendered), although that visit's page may have
// been rendered before the change the refresh announces. Here a refresh
// that arrives during a visit is owed, and made once the visit completed.
import { session, visit } from "@hotwired/turbo";
import { dispatch } from "./events";

const submitting = new Set();
let owed = false; // a refresh arrived and was not made yet
let deferred = false; // it was deferred for a busy form
let retry = null;

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

// visiting: Turbo is fetching or rendering a page (its own refresh
// included) and would drop a refresh now.
function visiting() {
  return !!(session.navigator && session.navigator.currentVisit);
}

// makeOwed makes the owed refresh unless a form is busy (its end checks
// again) or a visit runs (its turbo:load checks again; a visit cancelled
// without one is caught by the retry).
function makeOwed() {
  clearTimeout(retry);
  if (!owed || anyFormBusy()) return;
  if (visiting()) {
    retry = setTimeout(makeOwed, 250);
    return;
  }
  owed = false;
  if (deferred) {
    deferred = false;
    dispatch("fibe:refresh-applied", {});
  }
  visit(window.location.href, { action: "replace", shouldCacheSnapshot: false });
}

// check runs after the event that may have freed the page has settled
// (focus moves after focusout, a reset clears fields after the event, a
// visit ends after turbo:load).
function check() {
  setTimeout(makeOwed, 0);
}

export function installRefreshGuard() {
  document.addEventListener("turbo:before-stream-render", (event) => {
    const stream = event.target;
    if (stream.getAttribute("action") !== "refresh") return;
    event.detail.render = () => {};
    owed = true;
    if (anyFormBusy()) {
      deferred = true;
      dispatch("fibe:refresh-deferred", {});
      return;
    }
    makeOwed();
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
