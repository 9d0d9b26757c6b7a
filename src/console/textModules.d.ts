// The console's page and assets are imported as text (wrangler.toml [[rules]] type = "Text";
// the library's and the bench's esbuild builds load them as text too).
declare module "*.html" {
  const text: string;
  export default text;
}
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "*.browser.js" {
  const text: string;
  export default text;
}
declare module "uplot/dist/uPlot.iife.min.js" {
  const text: string;
  export default text;
}
