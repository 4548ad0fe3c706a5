// implgraph explorer, the pair matrix: a click on a cell shows its f (set by the bundled KaTeX) and witness in
// the #detail panel; the controls sort the grid's rows and columns and filter the grid and the list of pairs by
// verdict and by definition; a click on a heading of the list sorts it by that column. Everything is on the
// page already: the script only reorders, hides and fills in.
(function () {
  "use strict";
  var cells = JSON.parse(document.getElementById("cells").textContent);
  var order = JSON.parse(document.getElementById("order").textContent);
  var panel = document.getElementById("detail");

  function math(tex, text) {
    var span = document.createElement("span");
    if (tex && window.katex) {
      span.className = "math";
      window.katex.render(tex, span, {throwOnError: false, displayMode: false});
    } else {
      span.textContent = text;
    }
    return span;
  }
  function parts(list, into) {
    list.forEach(function (p, i) {
      if (i > 0) { into.appendChild(document.createTextNode("; ")); }
      if (p.pre) { into.appendChild(document.createTextNode(p.pre)); }
      if (p.text) { into.appendChild(math(p.tex, p.text)); }
      if (p.post) { into.appendChild(document.createTextNode(p.post)); }
    });
  }
  function witness(w) {
    var box = document.createElement("div");
    if (!w || !w.rows) { return box; }
    var p = document.createElement("p");
    p.appendChild(document.createTextNode("witness: level of a = "));
    p.appendChild(math(w.level_a.tex, w.level_a.text));
    p.appendChild(document.createTextNode(", level of b = "));
    p.appendChild(math(w.level_b.tex, w.level_b.text));
    box.appendChild(p);
    var t = document.createElement("table");
    t.className = "witness";
    w.rows.forEach(function (r, i) {
      var tr = document.createElement("tr");
      [String(i + 1), (w.classes || [])[i] || ""].forEach(function (x) {
        var td = document.createElement("td");
        td.textContent = x;
        tr.appendChild(td);
      });
      r.forEach(function (x, j) {
        var td = document.createElement("td");
        td.appendChild(math((w.tex[i] || [])[j], String(x)));
        tr.appendChild(td);
      });
      t.appendChild(tr);
    });
    box.appendChild(t);
    return box;
  }
  function open(a, b) {
    var c = cells[a + "\t" + b];
    if (!c) { return; }
    document.getElementById("detail-title").textContent = c.a + " ? " + c.b + ": " + c.relation + " (" + c.verdict + ")";
    var f = document.getElementById("detail-f");
    f.textContent = "";
    if (c.f_parts.length) {
      f.appendChild(document.createTextNode("f = "));
      parts(c.f_parts, f);
    } else {
      f.textContent = c.reason || "";
    }
    if (c.bound) { f.appendChild(document.createTextNode(" [" + c.bound + "]")); }
    var w = document.getElementById("detail-witness");
    w.textContent = "";
    w.appendChild(witness(c.witness_tex));
    document.getElementById("detail-link").href = c.href;
    panel.hidden = false;
  }
  document.querySelectorAll("a.pair").forEach(function (el) {
    el.addEventListener("click", function (ev) {
      ev.preventDefault();
      open(el.getAttribute("data-a"), el.getAttribute("data-b"));
    });
  });

  // the grid's order
  var grid = document.querySelector("table.matrix");
  var head = grid.querySelector("thead tr");
  var body = grid.querySelector("tbody");
  function sorted(how) {
    var names = order.nodes.slice();
    var index = {};
    names.forEach(function (n, i) { index[n] = i; });
    var key = {
      matrix: function (n) { return [index[n]]; },
      name: function (n) { return [n.toLowerCase(), index[n]]; },
      implies: function (n) { return [-order.strength[n][0], index[n]]; },
      implied: function (n) { return [-order.strength[n][1], index[n]]; }
    }[how];
    return names.sort(function (x, y) {
      var a = key(x), b = key(y);
      for (var i = 0; i < a.length; i++) {
        if (a[i] < b[i]) { return -1; }
        if (a[i] > b[i]) { return 1; }
      }
      return 0;
    });
  }
  function arrange(how) {
    var names = sorted(how);
    var cols = {};
    head.querySelectorAll("th.col").forEach(function (th) { cols[th.getAttribute("data-node")] = th; });
    names.forEach(function (n) { head.appendChild(cols[n]); });
    var rows = {};
    body.querySelectorAll("tr").forEach(function (tr) { rows[tr.getAttribute("data-node")] = tr; });
    names.forEach(function (n) {
      var tr = rows[n];
      var tds = {};
      tr.querySelectorAll("td").forEach(function (td) { tds[td.getAttribute("data-b")] = td; });
      names.forEach(function (m) { tr.appendChild(tds[m]); });
      body.appendChild(tr);
    });
  }

  // the filters: by verdict (the cell's classes hold every word of the one chosen) and by definition (a node
  // whose name holds the text typed, in either place of a pair)
  var verdict = document.getElementById("filter-verdict");
  var definition = document.getElementById("filter-definition");
  var pairs = document.querySelectorAll("#pairs tbody tr");
  function hasVerdict(classes) {
    var want = verdict.value.split(" ").filter(function (w) { return w; });
    var have = classes.split(" ");
    return want.every(function (w) { return have.indexOf(w) >= 0; });
  }
  function named(node) {
    var text = definition.value.trim().toLowerCase();
    return !text || node.toLowerCase().indexOf(text) >= 0;
  }
  function filter() {
    var one = definition.value.trim() !== "";
    body.querySelectorAll("tr").forEach(function (tr) {
      var a = tr.getAttribute("data-node");
      tr.querySelectorAll("td").forEach(function (td) {
        var b = td.getAttribute("data-b");
        var cls = td.className.replace(/^cell /, "");
        td.classList.toggle("dim", !hasVerdict(cls) || (one && !named(a) && !named(b)));
      });
    });
    var shown = 0;
    pairs.forEach(function (tr) {
      var show = hasVerdict(tr.getAttribute("data-cls")) &&
        (named(tr.getAttribute("data-a")) || named(tr.getAttribute("data-b")));
      tr.hidden = !show;
      shown += show ? 1 : 0;
    });
    document.getElementById("shown").textContent = shown + " of " + pairs.length + " pairs";
  }

  // the list of pairs sorted by a column (a second click reverses it)
  function sortPairs(th) {
    var table = document.getElementById("pairs");
    var column = Array.prototype.indexOf.call(th.parentNode.children, th);
    var up = th.getAttribute("aria-sort") !== "ascending";
    table.querySelectorAll("thead th").forEach(function (h) { h.setAttribute("aria-sort", "none"); });
    th.setAttribute("aria-sort", up ? "ascending" : "descending");
    var tbody = table.querySelector("tbody");
    var rows = Array.prototype.slice.call(tbody.querySelectorAll("tr"));
    var text = function (tr) {
      var td = tr.children[column];
      return (td.getAttribute("data-sort") || td.textContent).trim().toLowerCase();
    };
    rows.map(function (tr, i) { return [text(tr), i, tr]; }).sort(function (x, y) {
      if (x[0] !== y[0]) { return (x[0] < y[0] ? -1 : 1) * (up ? 1 : -1); }
      return x[1] - y[1];
    }).forEach(function (x) { tbody.appendChild(x[2]); });
  }

  document.getElementById("sort").addEventListener("change", function (ev) { arrange(ev.target.value); });
  verdict.addEventListener("change", filter);
  definition.addEventListener("input", filter);
  document.querySelectorAll("#pairs thead th").forEach(function (th) {
    th.querySelector("button").addEventListener("click", function () { sortPairs(th); });
  });
  filter();
}());
