// implgraph explorer: math set by the bundled KaTeX (elements .math with data-tex); the search box filters
// the index (window.IMPLGRAPH_INDEX) on the client.
(function () {
  "use strict";
  if (window.katex) {
    Array.prototype.forEach.call(document.querySelectorAll(".math[data-tex]"), function (el) {
      window.katex.render(el.getAttribute("data-tex"), el, {throwOnError: false, displayMode: false});
    });
  }
}());
(function () {
  "use strict";
  var root = document.body.getAttribute("data-root") || "";
  var box = document.getElementById("search");
  var list = document.getElementById("results");
  var index = window.IMPLGRAPH_INDEX || [];
  if (!box || !list) { return; }
  function show() {
    var words = box.value.toLowerCase().split(/\s+/).filter(function (w) { return w.length > 0; });
    list.textContent = "";
    if (words.length === 0) { list.hidden = true; return; }
    var found = index.filter(function (e) {
      var t = (e.t + " " + (e.d || "")).toLowerCase();
      return words.every(function (w) { return t.indexOf(w) >= 0; });
    }).slice(0, 50);
    found.forEach(function (e) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = root + e.h;
      a.textContent = e.t;
      var k = document.createElement("span");
      k.className = "k";
      k.textContent = e.k;
      li.appendChild(a);
      li.appendChild(k);
      list.appendChild(li);
    });
    if (found.length === 0) {
      var none = document.createElement("li");
      none.textContent = "nothing found";
      list.appendChild(none);
    }
    list.hidden = false;
  }
  box.addEventListener("input", show);
  box.addEventListener("keydown", function (ev) { if (ev.key === "Escape") { box.value = ""; show(); } });
}());
