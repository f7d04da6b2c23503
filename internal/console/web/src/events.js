// dispatch sends one of the console's CustomEvents on document (bubbling).
export function dispatch(name, detail = {}) {
  document.dispatchEvent(new CustomEvent(name, { bubbles: true, detail }));
}

// csrfToken is the page's CSRF token, for scripts' non-GET requests.
export function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.content : "";
}
