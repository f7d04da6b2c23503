// The page's Content-Security-Policy admits style elements that carry the
// session's nonce only. Turbo sets it on the elements it creates (from
// <meta name="csp-nonce">); xterm creates its own style elements without
// one, so every style element this document creates gets the nonce.
const meta = document.querySelector('meta[name="csp-nonce"]');
const nonce = meta ? meta.content : "";
if (nonce) {
  const create = Document.prototype.createElement;
  Document.prototype.createElement = function (name, options) {
    const el = create.call(this, name, options);
    if (typeof name === "string" && name.toLowerCase() === "style") el.nonce = nonce;
    return el;
  };
}
