// implgraph explorer: a click on a matrix cell shows its f and witness in the #detail panel.
(function () {
  "use strict";
  var cells = JSON.parse(document.getElementById("cells").textContent);
  var panel = document.getElementById("detail");
  function witness(w) {
    var box = document.createElement("div");
    if (!w || !w.rows) { return box; }
    var t = document.createElement("table");
    t.className = "witness";
    w.rows.forEach(function (r, i) {
      var tr = document.createElement("tr");
      [String(i + 1), (w.classes || [])[i] || ""].concat(r).forEach(function (x) {
        var td = document.createElement("td");
        td.textContent = x;
        tr.appendChild(td);
      });
      t.appendChild(tr);
    });
    var p = document.createElement("p");
    p.textContent = "witness: level of a = " + w.level_a + ", level of b = " + w.level_b;
    box.appendChild(p);
    box.appendChild(t);
    return box;
  }
  function open(a, b) {
    var c = cells[a + "\t" + b];
    if (!c) { return; }
    document.getElementById("detail-title").textContent = c.a + " ? " + c.b + ": " + c.relation + " (" + c.verdict + ")";
    var f = c.f ? "f = " + c.f : (c.reason || "");
    document.getElementById("detail-f").textContent = f + (c.bound ? " [" + c.bound + "]" : "");
    var w = document.getElementById("detail-witness");
    w.textContent = "";
    w.appendChild(witness(c.witness));
    document.getElementById("detail-link").href = c.href;
    panel.hidden = false;
  }
  document.querySelectorAll("a.pair").forEach(function (el) {
    el.addEventListener("click", function (ev) {
      ev.preventDefault();
      open(el.getAttribute("data-a"), el.getAttribute("data-b"));
    });
  });
}());
