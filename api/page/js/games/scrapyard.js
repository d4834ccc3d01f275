// Scrapyard: placeholder until its renderer lands (the generic renderer draws it meanwhile).

import { renderGeneric } from "./common.js";

export function render(view, ctx) {
  return renderGeneric(view, ctx);
}
