// How our esbuild builds (the library, the bench's Workers) bundle what wrangler.toml's
// [[rules]] type = "Text" bundles as text: the migrations, and the operations console's page,
// styles and scripts (src/console/*, uPlot's build). Extensions esbuild can map to a loader go in
// `textLoaders`; scripts served as text are .js files, which only a plugin can tell apart.
import { readFile } from "node:fs/promises";

export const textLoaders = { ".sql": "text", ".html": "text", ".css": "text" };

export const textScripts = {
  name: "text-scripts",
  setup(build) {
    build.onLoad({ filter: /(\.browser\.js|uPlot\.iife\.min\.js)$/ }, async (args) => ({
      contents: await readFile(args.path, "utf8"),
      loader: "text",
    }));
  },
};
