// @ts-check
// The browser code's words in the page's language: Django's JavaScript catalog
// (/jsi18n/<code>.js, loaded by base.html before any module, ginsite/i18n.py) defines
// the globals these wrap. Where no catalog is loaded (Node.js running the engine, a
// page without base.html) the English text is returned as written.
//
// Mark every string a person reads with one of these, as a plain string literal
// (tests/test_translations.py finds them there): gettext("Knock"),
// ngettext("%(n)s point", "%(n)s points", n), pgettext("card", "ten"), and fill its
// named gaps with format(): format(gettext("%(name)s knocked."), { name }).

/** @typedef {{ gettext?: (s: string) => string, ngettext?: (a: string, b: string, n: number) => string, pgettext?: (c: string, s: string) => string }} Catalog */

/** @returns {Catalog} */
function catalog() { return /** @type {Catalog} */ (globalThis); }

/** @param {string} text @returns {string} */
export function gettext(text) {
  const g = catalog().gettext;
  return g ? g(text) : text;
}

/** @param {string} one @param {string} many @param {number} count @returns {string} */
export function ngettext(one, many, count) {
  const g = catalog().ngettext;
  return g ? g(one, many, count) : (count === 1 ? one : many);
}

/** @param {string} context @param {string} text @returns {string} */
export function pgettext(context, text) {
  const g = catalog().pgettext;
  return g ? g(context, text) : text;
}

/** Fill "%(name)s" gaps from `values`.
 * @param {string} text @param {Record<string, unknown>} values @returns {string} */
export function format(text, values) {
  return text.replace(/%\((\w+)\)s/g, (gap, name) => (name in values ? String(values[name]) : gap));
}

/** The page's language (the <html lang> base.html writes), for Intl's formats. */
export function pageLanguage() {
  return (typeof document !== "undefined" && document.documentElement.lang) || "en";
}

/** A number as the page's language writes it ("1,234.5", "1.234,5", "1 234,5"), its
 * thousands always grouped, as the server's pages group them (Django's intcomma);
 * `options`: more of Intl.NumberFormat's (fraction digits, signDisplay).
 * @param {number} value @param {Intl.NumberFormatOptions} [options] */
export function formatNumber(value, options = {}) {
  return new Intl.NumberFormat(pageLanguage(), { useGrouping: /** @type {any} */ ("always"), ...options }).format(value);
}
