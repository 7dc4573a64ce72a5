/**
 * The home page shows three random products, as the old site did. The page may come from a cache,
 * so it ships a few more and a few lines of script in the page pick their own three on every visit
 * (without JavaScript, the page's first three stay; the loader's nine are in random order already).
 */
export const HIGHLIGHTS_SHOWN = 3
export const HIGHLIGHTS_SHIPPED = 9

/**
 * The page's picker, run right after the list it follows: shows HIGHLIGHTS_SHOWN of its items at
 * random and hides the rest. Its text never changes, so a kept page allows it by one hash.
 */
export const PICK_HIGHLIGHTS_SCRIPT = `(function () {
  var items = document.currentScript.previousElementSibling.children, order = [], i, j, t;
  for (i = 0; i < items.length; i++) order.push(i);
  for (i = order.length - 1; i > 0; i--) { j = Math.floor(Math.random() * (i + 1)); t = order[i]; order[i] = order[j]; order[j] = t; }
  for (i = 0; i < items.length; i++) items[i].hidden = order.indexOf(i) >= ${HIGHLIGHTS_SHOWN};
})()`
