// Building the page's DOM. Every text that comes from the service (views, actions, names) goes in as a text
// node: nothing here ever assigns innerHTML, so a view holding "<script>" is shown as those characters.

/** An element: h("div", {class: "x", onclick: f}, "text", child...). Attribute names come from this code only. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/** Append children (nodes, strings, numbers, nested arrays; null and false are skipped) as nodes or text. */
export function append(el, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace everything inside el. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** A readable label from a view key: "hand_sizes" -> "hand sizes". */
export function label(key) {
  return String(key).replace(/_/g, " ");
}
