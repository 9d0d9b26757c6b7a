// Numbers, durations and times as the console shows them, in a language Intl accepts.

/** `tag` as Intl takes it, or undefined where Intl refuses it (a RangeError). */
function accepted(tag) {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

// Chromium under LANG=C.UTF-8 reports "en-US@posix", which every Intl formatter refuses with a
// RangeError — uPlot's too, built from navigator.language as it loads (page.html loads this
// module's graph before uPlot). Such a name's language and region ("en-US") stand in for it, else "en-US".
const BROWSER_LOCALE = accepted(navigator.language);
export const LOCALE = BROWSER_LOCALE ?? accepted(String(navigator.language).split(/[.@]/)[0].replace(/_/g, "-")) ?? "en-US";
if (BROWSER_LOCALE === undefined) {
  console.warn(`The browser's language ${JSON.stringify(navigator.language)} is not a language tag; formatting for ${LOCALE}.`);
  Object.defineProperty(navigator, "language", { value: LOCALE, configurable: true });
}

export const number = (n) => (n === null || n === undefined ? "–" : Number(n).toLocaleString(LOCALE));
export const ms = (n) =>
  n === null || n === undefined ? "–" : n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)} s` : `${n} ms`;
export const age = (n) =>
  n === null || n === undefined ? "–" : n < 60_000 ? `${Math.round(n / 1000)} s` : `${Math.round(n / 60_000)} min`;
export const time = (at) => new Date(at).toLocaleString(LOCALE);
/** Bytes in decimal units (Cloudflare states its 10 GB per Durable Object so). */
export const bytes = (n) => {
  if (n === null || n === undefined) return "–";
  const [unit, name] = [
    [1e9, "GB"],
    [1e6, "MB"],
    [1e3, "kB"],
  ].find(([size]) => n >= size) ?? [1, "B"];
  return `${(n / unit).toLocaleString(LOCALE, { maximumFractionDigits: n >= 10 * unit ? 0 : 1 })} ${name}`;
};
/** A time of day to the millisecond: an attempt's start and end, a call inside it. */
export const clock = (at) =>
  at === null || at === undefined
    ? "–"
    : new Date(at).toLocaleTimeString(LOCALE, {
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
        fractionalSecondDigits: 3,
      });
