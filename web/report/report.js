// nasperf report page: reads the report data embedded in the page (#nasperf-data) and
// draws the header, diagnosis waterfalls, sweep curves, bars, per-rank bars of many-clients runs, per-size and
// pacing tables, application workloads (run.app), latency, throughput-over-time and facts table
// with ECharts (global `echarts`, canvas renderer). Vanilla ES2020, no network.
// Exposes window.nasperfReport = {renderedMs, charts: [{id, title, series}]} for the
// browser test; keep that name and shape.
(function () {
  'use strict';

  // Okabe–Ito, in this order: distinguishable with the common colour-vision deficiencies.
  const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'];
  // Shapes and dashes go with the colours, so series differ by more than colour.
  const SYMBOLS = ['circle', 'rect', 'triangle', 'diamond', 'roundRect', 'pin', 'arrow'];
  const DASHES = ['solid', 'dashed', 'dotted', [10, 4, 2, 4], [16, 4], [2, 4, 8, 4]];
  const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", "DejaVu Sans", Arial, sans-serif';
  const INK = '#1f2328';
  const MUTED = '#57606a';
  const RULE = '#e3e6ea';
  const MARKER_GREY = '#4d4d4d';
  // Beyond this many series a chart starts with the rest hidden (the legend lists all).
  const MAX_SHOWN_SERIES = 24;
  // Chart width while printing: A4 or Letter portrait minus margins, at 96 px per inch.
  const PRINT_WIDTH_PX = 680;
  // Sweep charts: plot margins (px) and the rows above the plot that carry the labels
  // of the knee and RAM lines.
  const SWEEP_GRID = {left: 64, right: 40};
  const MARKER_FONT_PX = 11;
  const MARKER_ROW_PX = 17;
  // Charts with this many series or more put their legend on the right, one entry a
  // line, when they are at least NARROW_PX wide, and below the plot when narrower.
  const SIDE_LEGEND_FROM = 7;
  const SIDE_LEGEND_PX = 300;
  const NARROW_PX = 900;
  // The header lists the items one a line up to this many; more go in a closed <details>.
  const ITEM_LIST_OPEN_MAX = 12;
  // A reference line below this fraction of the MB/s axis would sit on the axis: named
  // in the caption instead (on a linear axis; the logarithmic one draws them all).
  const LOW_LINE_FRACTION = 1 / 30;
  // Facts: numbers that differ by no more than this (relative to the larger) are alike;
  // figures that drift between any two runs are never marked.
  const FACT_TOLERANCE = 0.10;
  const DRIFTING_FACT = /page_cache_bytes|available_bytes|free_bytes/;
  // Fact values longer than this wrap in a column of limited width (mount options).
  const LONG_FACT_CHARS = 40;
  const PERCENTILES = [['p50', 'p50'], ['p90', 'p90'], ['p99', 'p99'], ['p999', 'p99.9'], ['max', 'max']];
  const DIRECTIONS = ['read', 'write'];
  const HELPER_SERIES = '\u200bnasperf markers'; // carries reference lines; not in the legend

  // ---------------------------------------------------------------- small helpers
  const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
  const list = (v) => (Array.isArray(v) ? v : []);
  const record = (v) => (v && typeof v === 'object' && !Array.isArray(v) ? v : {});
  const str = (v, fallback) => (v == null || v === '' ? fallback : String(v));

  // 1234.5 with 1 digit -> "1,234.5" (Intl.NumberFormat's first use costs tens of ms).
  function fmtNumber(v, digits) {
    const [int, frac] = Math.abs(v).toFixed(digits).split('.');
    const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return (v < 0 && Number(int + (frac || '')) !== 0 ? '-' : '') + grouped + (frac ? '.' + frac : '');
  }
  // 65536 -> "64 KiB", 1610612736 -> "1.5 GiB" (binary units, like the C++ side).
  function fmtBytes(bytes) {
    if (!isNum(bytes)) return 'n/a';
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
    let v = bytes;
    let i = 0;
    while (Math.abs(v) >= 1024 && i < units.length - 1) {
      v /= 1024;
      i += 1;
    }
    const s = Number.isInteger(v) ? String(v) : v.toFixed(1).replace(/\.0$/, '');
    return s + ' ' + units[i];
  }
  // MB/s (10^6 B/s) with sensible precision: 3309, 112.6, 9.87, 0.512.
  function fmtMBps(v) {
    if (!isNum(v)) return 'n/a';
    const a = Math.abs(v);
    return fmtNumber(v, a >= 1000 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
  }
  // A reference speed as the user wrote it: 125, 12.5.
  function fmtLineMBps(v) {
    return Number.isInteger(v) ? String(v) : fmtMBps(v);
  }
  function fmtUs(v) {
    if (!isNum(v)) return 'n/a';
    const a = Math.abs(v);
    return fmtNumber(v, a >= 100 ? 0 : a >= 10 ? 1 : 2) + ' µs';
  }
  // Axis ticks of a log axis: 0.1, 1, 10, 1,000 (no "0.10" beside "1").
  function fmtAxisNumber(v) {
    if (!isNum(v)) return '';
    const a = Math.abs(v);
    if (a >= 1) return fmtNumber(v, Number.isInteger(v) ? 0 : 1);
    return String(Number(v.toPrecision(2)));
  }
  function fmtPct(v) {
    return (v > 0 ? '+' : '') + v.toFixed(1) + ' %';
  }
  function escapeHtml(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'})[c]);
  }
  // The Okabe–Ito yellow is too pale for text on white.
  function textColour(colour) {
    return colour === '#F0E442' ? '#8a7f00' : colour;
  }
  function emptySymbol(symbol) {
    return 'empty' + symbol.charAt(0).toUpperCase() + symbol.slice(1);
  }
  let measureContext = null;
  function textWidthPx(text, fontPx) {
    if (!measureContext) measureContext = document.createElement('canvas').getContext('2d');
    if (!measureContext) return text.length * fontPx * 0.6;
    measureContext.font = fontPx + 'px ' + FONT;
    return measureContext.measureText(text).width;
  }

  // h('p', {class: 'note'}, 'text', childNode): text is never parsed as HTML.
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null || v === false) continue;
      if (k === 'class') node.className = v;
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat()) {
      if (c == null || c === false) continue;
      node.append(c instanceof Node ? c : String(c));
    }
    return node;
  }

  // ---------------------------------------------------------------- the data
  function readData() {
    const holder = document.getElementById('nasperf-data');
    const text = holder ? holder.textContent.trim() : '';
    if (!text || text.startsWith('/*@')) throw new Error('this page carries no report data');
    try {
      return JSON.parse(text);
    } catch (err) {
      // An HTML comment opener followed by a script tag, left unescaped in the data, makes
      // this element run on to the end of the page: the closing tags follow the JSON,
      // which is itself whole.
      const end = text.lastIndexOf('}');
      if (end < 0 || end === text.length - 1) throw err;
      return JSON.parse(text.slice(0, end + 1));
    }
  }

  // Items with unique labels (a label names a legend entry) and their runs in order;
  // `measures` are the (run, direction) pairs of the non-sweep items.
  function buildModel(raw) {
    const data = record(raw);
    const seen = new Set();
    const items = list(data.items).map((it, i) => {
      const item = record(it);
      const key = str(item.key, 'item' + (i + 1));
      let label = str(item.label, key);
      if (seen.has(label)) label += ' (' + key + ')';
      for (let n = 2; seen.has(label); n++) label = str(item.label, key) + ' (' + n + ')';
      seen.add(label);
      return {key, kind: str(item.kind, 'run'), label, raw: item, runs: []};
    });
    const byKey = new Map(items.map((it) => [it.key, it]));
    for (const r of list(data.runs)) {
      const run = record(r);
      const item = byKey.get(str(run.item, ''));
      if (item) item.runs.push(run);
    }
    for (const item of items) {
      const order = list(item.raw.run_ids);
      if (order.length) {
        const pos = new Map(order.map((id, i) => [id, i]));
        const rank = (run) => (pos.has(run.id) ? pos.get(run.id) : order.length);
        item.runs.sort((a, b) => rank(a) - rank(b)); // stable: unknown ids keep data order
      }
    }
    const measures = [];
    const categories = [];
    const categoryIndex = new Map();
    const barItems = items.filter((it) => it.kind !== 'sweep' && it.kind !== 'diagnosis');
    barItems.forEach((item, itemSlot) => {
      const count = new Map();
      for (const run of item.runs) {
        for (const dir of DIRECTIONS) {
          if (!run[dir] || typeof run[dir] !== 'object') continue;
          const label = runLabel(run);
          // A plain run's label starts with its rw ("read 1 MiB Q1T1"): no second "read". An
          // application run's is its workload, which says no direction.
          const rw = run.test || record(run.app).workload ? '' : str(record(run.job).rw, '');
          const base = /^(rand)?(read|write)$/.test(rw) && rw.endsWith(dir) ? label : label + ' ' + dir;
          const n = (count.get(base) || 0) + 1;
          count.set(base, n);
          const category = n === 1 ? base : base + ' (' + n + ')';
          if (!categoryIndex.has(category)) {
            categoryIndex.set(category, categories.length);
            categories.push(category);
          }
          measures.push({item, itemSlot, run, dir, figures: record(run[dir]), category,
            categorySlot: categoryIndex.get(category), name: item.label + ' · ' + category});
        }
      }
    });
    return {data, items, barItems, measures, categories};
  }

  // "SEQ1M Q8T1", or for a plain run "randread 4 KiB Q32T1".
  function runLabel(run) {
    if (run.test) return String(run.test);
    // An application run by its workload: its job (1 MiB writes, Q1T1) is how it moved bytes.
    if (typeof record(run.app).workload === 'string' && run.app.workload) return String(run.app.workload);
    const job = record(run.job);
    const parts = [];
    if (job.rw) parts.push(String(job.rw));
    // A block-size mix is named by its sizes and weights ("4 KiB/50:64 KiB/50"), not by
    // its largest size (job.bs, which sizes the buffers).
    const mix = list(job.bs_split).map(record).filter((e) => isNum(e.bs) && isNum(e.pct));
    if (mix.length > 1) parts.push(mix.map((e) => fmtBytes(e.bs) + '/' + e.pct).join(':'));
    else if (isNum(job.bs)) parts.push(fmtBytes(job.bs));
    if (isNum(job.qd) || isNum(job.threads))
      parts.push('Q' + (isNum(job.qd) ? job.qd : '?') + 'T' + (isNum(job.threads) ? job.threads : '?'));
    if (parts.length) return parts.join(' ');
    return run.name ? String(run.name) : 'run #' + str(run.id, '?');
  }

  // ---------------------------------------------------------------- charts
  // Sections build their DOM and register charts; drawCharts() draws them all once the
  // page is laid out. build(widthPx, selected) -> {option, heightPx}: a chart's layout
  // follows its width (screen, phone, printed page); `selected` is the legend state.
  const charts = []; // {id, title, series, box, build, chart}
  const afterCharts = []; // DOM to insert once the charts have their widths

  function addChart(parent, id, title, series, build) {
    const box = h('div', {class: 'chart', id, role: 'img', 'aria-label': title});
    parent.append(box);
    const spec = {id, title, series, box, build, chart: null};
    charts.push(spec);
    return spec;
  }

  function drawCharts() {
    const widths = charts.map((c) => c.box.clientWidth || 800); // one layout for all
    const built = charts.map((c, i) => {
      try {
        return c.build(widths[i], null);
      } catch (err) {
        return {error: err};
      }
    });
    built.forEach((b, i) => {
      if (!b.error) charts[i].box.style.height = b.heightPx + 'px';
    });
    charts.forEach((c, i) => {
      try {
        if (built[i].error) throw built[i].error;
        // The size given: no reading the layout back between charts.
        c.chart = echarts.init(c.box, null, {renderer: 'canvas', width: widths[i], height: built[i].heightPx});
        c.chart.setOption(built[i].option);
      } catch (err) {
        console.error('nasperf report: chart ' + c.id + ':', err);
        if (c.chart) c.chart.dispose();
        c.chart = null;
        c.box.style.height = '';
        c.box.replaceChildren(h('p', {class: 'notice'}, 'This chart could not be drawn: ' + (err && err.message ? err.message : String(err))));
      }
    });
  }

  // Lays a chart out again for `widthPx` (null: its box's width), keeping what the
  // reader hid or showed in the legend. A new pixel ratio (print) needs a new canvas.
  function redraw(spec, widthPx, pixelRatio) {
    if (!spec.chart) return;
    const legend = record(list(spec.chart.getOption().legend)[0]);
    const width = widthPx || spec.box.clientWidth || spec.chart.getWidth();
    const {option, heightPx} = spec.build(width, legend.selected || null);
    spec.box.style.height = heightPx + 'px';
    const ratio = pixelRatio || window.devicePixelRatio || 1;
    if (ratio !== (spec.pixelRatio || window.devicePixelRatio || 1)) {
      spec.chart.dispose();
      spec.chart = echarts.init(spec.box, null, {renderer: 'canvas', width, height: heightPx, devicePixelRatio: ratio});
      spec.pixelRatio = ratio;
      spec.chart.setOption(option);
      return;
    }
    spec.chart.resize({width, height: heightPx});
    spec.chart.setOption(option, {notMerge: true});
  }

  function baseOption(title, subtitle) {
    return {
      animation: false,
      color: PALETTE,
      textStyle: {fontFamily: FONT, color: INK},
      title: {text: title, subtext: subtitle || '', left: 12, top: 6, itemGap: 4,
        textStyle: {fontSize: 15, fontWeight: 600, color: INK}, subtextStyle: {fontSize: 12, color: MUTED}},
      tooltip: {confine: true, backgroundColor: 'rgba(255,255,255,0.97)', borderColor: '#b8bec6',
        textStyle: {fontSize: 12, color: INK}, extraCssText: 'max-width: 460px; white-space: normal;'},
    };
  }

  // Where the legend goes: a few entries above the plot when they fit one row; many or
  // long ones on the right of a wide
  // chart, one a line; on a narrow one (a phone, a printed page) the shown entries below
  // the plot, all visible. The first MAX_SHOWN_SERIES entries start shown. Returns the
  // legend and the room it takes: {legend, top, right, bottom, minHeight} in px.
  function legendLayout(names, widthPx, selected) {
    const sel = {};
    names.forEach((name, i) => {
      sel[name] = selected && name in selected ? selected[name] !== false : i < MAX_SHOWN_SERIES;
    });
    const common = {type: 'scroll', data: names, selected: sel, itemWidth: 30, itemHeight: 12,
      textStyle: {fontSize: 12, color: INK}, pageTextStyle: {color: MUTED}};
    // A few short names fit one row above the plot; longer ones would page and be cut.
    const oneRow = () => names.reduce((sum, n) => sum + 30 + 5 + textWidthPx(n, 12) + 16, 0) <= widthPx - 24;
    if (names.length < SIDE_LEGEND_FROM && oneRow()) {
      return {legend: Object.assign(common, {top: 50, left: 12, right: 12, itemGap: 16}), top: 86, right: 0, bottom: 0, minHeight: 0};
    }
    if (widthPx >= NARROW_PX) {
      // Truncating costs a measurement per entry: only when some name is too long,
      // and then the full name shows on hover.
      const textPx = SIDE_LEGEND_PX - 50;
      const tooLong = names.some((n) => n.length * 5 > textPx && textWidthPx(n, 12) > textPx);
      return {legend: Object.assign(common, {orient: 'vertical', right: 10, top: 56, bottom: 16, itemGap: 8,
        textStyle: tooLong ? {fontSize: 12, color: INK, width: textPx, overflow: 'truncate'} : common.textStyle,
        tooltip: {show: tooLong}}), top: 60, right: SIDE_LEGEND_PX, bottom: 0,
        minHeight: 56 + Math.min(names.length, MAX_SHOWN_SERIES + 2) * 20 + 40}; // 20 px an entry
    }
    const shown = names.filter((n) => sel[n]);
    const room = widthPx - 24;
    let rows = 1;
    let x = 0;
    for (const n of shown) {
      const w = Math.min(room, 30 + 5 + textWidthPx(n, 12) + 14);
      if (x > 0 && x + w > room) {
        rows += 1;
        x = 0;
      }
      x += w;
    }
    const legendPx = rows * 24 + 14; // a row: the 12 px icon or text, plus the 14 px gap
    return {legend: Object.assign(common, {type: 'plain', data: shown, bottom: 6, left: 12, right: 12, itemGap: 14}),
      top: 60, right: 0, bottom: legendPx, minHeight: 0};
  }

  function valueAxis(name, extra) {
    return Object.assign({type: 'value', name, nameLocation: 'middle', nameGap: 46,
      nameTextStyle: {color: INK, fontSize: 12}, axisLabel: {color: MUTED, fontSize: 11},
      axisLine: {show: true, lineStyle: {color: '#8c959f'}}, splitLine: {lineStyle: {color: RULE}}}, extra || {});
  }

  function tooltipRow(marker, name, value) {
    return '<div class="tt-row">' + marker + ' ' + escapeHtml(name) + ': <b>' + escapeHtml(value) + '</b></div>';
  }

  function hiddenNote(names) {
    return names.length > MAX_SHOWN_SERIES
      ? 'The first ' + MAX_SHOWN_SERIES + ' of ' + names.length + ' series are shown; click legend entries to show or hide others.'
      : '';
  }

  // ---------------------------------------------------------------- page skeleton
  function section(root, id, heading, intro) {
    const s = h('section', {id, class: 'report-section'}, h('h2', {}, heading));
    if (intro) s.append(h('p', {class: 'intro'}, intro));
    root.append(s);
    return s;
  }

  function skipNote(s, text) {
    s.classList.add('skipped');
    s.append(h('p', {class: 'note'}, text));
  }

  function caption(parent, ...lines) {
    const c = h('div', {class: 'caption'});
    for (const line of lines.flat()) if (line) c.append(h('p', {}, line));
    if (c.childNodes.length) parent.append(c);
    return c;
  }

  function renderHeader(root, model) {
    const d = model.data;
    const version = str(record(d.nasperf).version, 'unknown');
    const meta = h('dl', {class: 'meta'},
      h('dt', {}, 'Generated'), h('dd', {}, h('time', {datetime: str(d.generated_at, '')}, str(d.generated_at, 'unknown'))),
      h('dt', {}, 'Command'), h('dd', {}, h('code', {}, str(d.command_line, 'unknown'))),
      h('dt', {}, 'nasperf'), h('dd', {}, 'version ' + version));
    const items = h('ul', {class: 'items'});
    for (const it of model.items) {
      const runs = it.kind === 'sweep' ? list(it.raw.points).length + ' points' : it.runs.length + ' run' + (it.runs.length === 1 ? '' : 's');
      const partial = it.runs.some((r) => r.partial === true) ? ' · partial' : '';
      items.append(h('li', {}, h('span', {class: 'kind'}, it.kind), ' ', h('b', {}, it.label), ' ',
        h('span', {class: 'muted'}, '(' + it.key + ', ' + runs + partial + ')')));
    }
    const header = h('header', {class: 'report-header'},
      h('h1', {}, str(d.title, 'nasperf report')), meta,
      h('p', {class: 'units'}, 'Units: MB/s = 10⁶ bytes per second; file and block sizes in binary units ' +
        '(1 KiB = 1024 bytes, MiB, GiB); latency in microseconds (µs).'),
      model.items.length ? h('div', {class: 'item-list'}, h('h2', {}, 'Items'), itemList(model.items, items))
        : h('p', {class: 'note'}, 'The report has no items.'));
    root.append(header);
  }

  // A long list stays closed (and is not laid out) until the reader opens it.
  function itemList(items, ul) {
    if (items.length <= ITEM_LIST_OPEN_MAX) return ul;
    const kinds = new Map();
    for (const it of items) kinds.set(it.kind, (kinds.get(it.kind) || 0) + 1);
    const byKind = [...kinds].map(([kind, n]) => n + ' ' + kind).join(', ');
    return h('details', {class: 'items-more'}, h('summary', {}, items.length + ' items (' + byKind + ')'), ul);
  }

  function renderNav(root, sections) {
    const nav = h('nav', {class: 'toc', 'aria-label': 'Sections'});
    for (const [id, label] of sections) nav.append(h('a', {href: '#' + id}, label));
    root.append(nav);
  }

  // ---------------------------------------------------------------- 0. diagnosis waterfalls
  // One chart per diagnosis (`nasperf diagnose`): each layer's measured ceiling as a bar,
  // the link's line rate and TCP payload maximum as reference lines, the bar that caps the
  // end-to-end figure in the highlight colour, cached bars faded with a dashed outline
  // (a cache served them: not a ceiling); then the terminal's table, causes and gaps.
  const WATERFALL_BAR = PALETTE[0];
  const WATERFALL_CAP = PALETTE[3];

  function renderDiagnoses(root, model) {
    const diagnoses = model.items.filter((it) => it.kind === 'diagnosis');
    if (!diagnoses.length) return;
    const s = section(root, 'diagnoses', 'Where the throughput goes (diagnoses)',
      'Each bar is a layer\'s measured ceiling in MB/s; the grey dashed lines are the link\'s line rate and the TCP ' +
      'payload maximum for its MTU. The highlighted bar is the layer that caps the end-to-end figure; faded bars with ' +
      'a dashed outline were served from a cache and left out of the cap.');
    diagnoses.forEach((it, n) => {
      const w = record(it.raw.waterfall);
      const rows = list(w.rows).map(record);
      const wrap = h('div', {class: 'chart-wrap'});
      s.append(wrap);
      if (!rows.some((r) => isNum(r.mb_per_s))) {
        wrap.append(h('p', {class: 'note'}, it.label + ': no layer was measured.'));
      } else {
        const title = 'Waterfall: ' + it.label;
        const categories = rows.map((r) => str(r.layer, '?') + ' · ' + str(r.what, ''));
        const subtitle = isNum(w.end_to_end_mb_per_s)
          ? 'end to end ' + fmtMBps(w.end_to_end_mb_per_s) + ' MB/s; capped by: ' + (isNum(w.unexplained_shortfall_pct)
            ? 'not proven: the protocol is ' + fmtNumber(w.unexplained_shortfall_pct, 0) + ' % short of the ' +
              str(w.cap_layer, '?') + ', unexplained'
            : str(w.cap_layer, 'unknown'))
          : 'end to end not measured';
        addChart(wrap, 'chart-waterfall-' + (n + 1), title, [it.label], (widthPx) =>
          waterfallOption({title, subtitle, name: it.label, rows, categories, w}, widthPx));
        const notes = [];
        for (const r of rows) {
          if (!isNum(r.mb_per_s)) notes.push(str(r.layer, '?') + ' · ' + str(r.what, '') + ': not measured' + (r.note ? ' (' + r.note + ')' : ''));
          else if (r.cached) notes.push(str(r.layer, '?') + ' · ' + str(r.what, '') + ': cached' + (r.note ? ' (' + r.note + ')' : ''));
        }
        if (!isNum(w.line_rate_mb_per_s)) notes.push('The line rate was not measured, so no line is drawn.');
        caption(wrap, notes);
      }
      const table = list(it.raw.table).map((line) => String(line));
      if (table.length) wrap.append(h('pre', {class: 'diagnosis-table'}, table.join('\n')));
    });
  }

  function waterfallOption(ctx, widthPx) {
    const {rows, categories, w} = ctx;
    const option = baseOption(ctx.title, ctx.subtitle);
    // Room above the plot for the reference lines' labels, stacked one a row.
    option.grid = {left: 12, right: 150, top: 72 + 16 * 2, bottom: 52, containLabel: true};
    option.xAxis = valueAxis('Ceiling (MB/s)', {min: 0, nameGap: 30});
    option.yAxis = {type: 'category', data: categories, inverse: true, axisLabel: {color: INK, fontSize: 12},
      axisTick: {alignWithLabel: true}, axisLine: {lineStyle: {color: '#8c959f'}}};
    option.tooltip.trigger = 'item';
    option.tooltip.formatter = (p) => {
      const r = rows[p.dataIndex] || {};
      let out = '<div class="tt-head">' + escapeHtml(categories[p.dataIndex] || '') + '</div>';
      if (!isNum(r.mb_per_s)) return out + '<div>not measured' + (r.note ? ': ' + escapeHtml(r.note) : '') + '</div>';
      out += tooltipRow(p.marker, 'ceiling', fmtMBps(r.mb_per_s) + ' MB/s');
      if (isNum(r.pct_of_line_rate)) out += tooltipRow('', 'of line rate', fmtNumber(r.pct_of_line_rate, 0) + ' %');
      if (isNum(r.pct_of_payload_max)) out += tooltipRow('', 'of payload max', fmtNumber(r.pct_of_payload_max, 0) + ' %');
      if (r.caps) out += '<div><b>this layer caps the end-to-end figure</b></div>';
      if (r.cached) out += '<div>served from a cache: left out of the cap</div>';
      if (r.note) out += '<div>' + escapeHtml(r.note) + '</div>';
      return out;
    };
    const lines = [];
    if (isNum(w.payload_max_mb_per_s)) lines.push({label: 'TCP payload max', mb_per_s: w.payload_max_mb_per_s});
    if (isNum(w.line_rate_mb_per_s))
      lines.push({label: 'line rate' + (isNum(w.line_rate_mbps) ? ' ' + fmtNumber(w.line_rate_mbps, 0) + ' Mbit/s' : '') +
                         (w.line_rate_source === 'stated' ? ' (stated)' : ''),
        mb_per_s: w.line_rate_mb_per_s});
    option.series = [{
      type: 'bar', name: ctx.name, barMaxWidth: 26, barCategoryGap: '30%',
      label: {show: true, position: 'right', fontSize: 11, color: INK,
        formatter: (p) => waterfallLabel(rows[p.dataIndex] || {})},
      data: rows.map((r) => {
        const colour = r.caps ? WATERFALL_CAP : WATERFALL_BAR;
        const style = r.cached
          ? {color: colour, opacity: 0.4, borderColor: colour, borderType: 'dashed', borderWidth: 1.5}
          : {color: colour};
        return {value: isNum(r.mb_per_s) ? r.mb_per_s : null, itemStyle: style, caps: r.caps === true, cached: r.cached === true};
      }),
      markLine: {symbol: 'none', silent: true, animation: false,
        data: lines.map((l, i) => {
          const label = l.label + ' ' + fmtLineMBps(l.mb_per_s) + ' MB/s';
          return {xAxis: l.mb_per_s, name: label, lineStyle: {color: MARKER_GREY, type: i === lines.length - 1 ? [8, 4] : 'dotted', width: 1.2},
            label: {formatter: () => label, position: 'start', color: MARKER_GREY, fontSize: 11, distance: 4 + 16 * i,
              backgroundColor: 'rgba(255,255,255,0.85)', padding: [1, 3]}};
        })},
    }];
    return {option, heightPx: 72 + 16 * 2 + 52 + 40 + rows.length * 38};
  }

  function waterfallLabel(r) {
    if (!isNum(r.mb_per_s)) return 'not measured';
    let text = fmtMBps(r.mb_per_s) + ' MB/s';
    if (isNum(r.pct_of_line_rate)) text += ' (' + fmtNumber(r.pct_of_line_rate, 0) + ' % of line)';
    if (r.caps) text += ' · cap';
    if (r.cached) text += ' · cached';
    return text;
  }

  // ---------------------------------------------------------------- 1. sweep curves
  function renderSweeps(root, model) {
    const s = section(root, 'sweeps', 'Throughput against file size (sweeps)');
    const sweeps = model.items.filter((it) => it.kind === 'sweep');
    const pairs = [];
    const pairKeys = new Set();
    const addPair = (test, recordBytes) => {
      const key = test + '|' + recordBytes;
      if (!pairKeys.has(key)) {
        pairKeys.add(key);
        pairs.push({test, recordBytes});
      }
    };
    for (const sw of sweeps) {
      for (const c of list(record(sw.raw.sweep).curves)) addPair(str(record(c).test, '?'), record(c).record_bytes);
      for (const p of list(sw.raw.points)) addPair(str(record(p).test, '?'), record(p).record_bytes);
    }
    if (!sweeps.length || !pairs.length) {
      skipNote(s, sweeps.length ? 'The selected sweeps have no points.' : 'No sweep was selected, so there are no file-size curves.');
      return;
    }
    const records = new Set(pairs.map((p) => p.recordBytes));
    s.append(h('p', {class: 'intro'}, 'Filled symbols are cached points (the file fits in RAM that can cache it); hollow ' +
      'symbols are uncached. Grey dashed lines are reference speeds; solid vertical lines mark each curve\'s knee, ' +
      'dashed vertical lines the RAM sizes.'));
    const grid = h('div', {class: 'chart-grid'});
    s.append(grid);
    let drawn = 0;
    for (const pair of pairs) if (renderSweepChart(grid, model, sweeps, pair, records.size > 1, drawn + 1)) drawn += 1;
    if (!drawn) skipNote(s, 'The selected sweeps have no points with a throughput.');
  }

  // Returns whether it drew a chart: not when no sweep has a figure for this test and record.
  function renderSweepChart(parent, model, sweeps, pair, manyRecords, number) {
    const entries = [];
    for (const [slot, sw] of sweeps.entries()) { // a sweep's colour and symbol: the same in every chart
      const points = list(sw.raw.points).map(record)
        .filter((p) => str(p.test, '?') === pair.test && p.record_bytes === pair.recordBytes && isNum(p.file_bytes) && p.file_bytes > 0)
        .sort((a, b) => a.file_bytes - b.file_bytes);
      const summary = record(sw.raw.sweep);
      const curve = record(list(summary.curves).map(record)
        .find((c) => str(c.test, '?') === pair.test && c.record_bytes === pair.recordBytes));
      if (!points.length && !curve.verdict) continue;
      entries.push({item: sw, points, curve, ram: record(summary.ram), direct: summary.direct === true, slot});
    }
    const xs = entries.flatMap((e) => e.points.map((p) => p.file_bytes));
    const ys = entries.flatMap((e) => e.points.map((p) => p.mb_per_s)).filter(isNum);
    if (!ys.length) return false;
    const xMin = xs.length ? 2 ** Math.floor(Math.log2(Math.min(...xs))) : 2 ** 16;
    const xMax = Math.max(xMin * 2, xs.length ? 2 ** Math.ceil(Math.log2(Math.max(...xs))) : 2 ** 31);
    const yMax = ys.length ? Math.max(...ys) : 0;
    const lines = list(model.data.lines).map(record).filter((l) => isNum(l.mb_per_s) && l.mb_per_s > 0);
    // A reference line far above the data would flatten the curves, one far below it
    // would sit on the axis: leave them out, say so.
    const highLines = lines.filter((l) => yMax > 0 && l.mb_per_s > 3 * yMax);
    const inRange = lines.filter((l) => !highLines.includes(l));
    const axisTop = Math.max(yMax, ...inRange.map((l) => l.mb_per_s));
    const lowLines = inRange.filter((l) => l.mb_per_s < axisTop * LOW_LINE_FRACTION);
    const shownLines = inRange.filter((l) => !lowLines.includes(l));
    const markers = sweepMarkers(entries, xMin, xMax);

    const title = pair.test + ': throughput against file size' + (manyRecords ? ', ' + fmtBytes(pair.recordBytes) + ' records' : '');
    const subtitle = (isNum(pair.recordBytes) ? fmtBytes(pair.recordBytes) + ' records · ' : '') +
      'filled symbols: cached, hollow: uncached';
    const ctx = {title, subtitle, entries, xMin, xMax, shownLines, lowLines, markers: markers.inside, logY: false};
    const names = entries.map((e) => e.item.label);

    const wrap = h('div', {class: 'chart-wrap'});
    parent.append(wrap);
    const id = 'chart-sweep-' + number + '-' + pair.test.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 24);
    const toggle = h('input', {type: 'checkbox', class: 'log-toggle'});
    wrap.append(h('div', {class: 'toolbar'}, h('label', {}, toggle, ' logarithmic MB/s axis')));
    const spec = addChart(wrap, id, title, names, (width, selected) => sweepOption(ctx, width, selected));
    toggle.addEventListener('change', () => {
      ctx.logY = toggle.checked;
      redraw(spec, printing ? PRINT_WIDTH_PX : null);
    });

    const notes = [];
    const lineList = (ls) => ls.map((l) => str(l.label, 'line') + ' ' + fmtLineMBps(l.mb_per_s) + ' MB/s').join('; ');
    if (highLines.length) notes.push('Reference lines above the chart: ' + lineList(highLines) + '.');
    if (lowLines.length)
      notes.push('Reference lines too low to draw on this scale (the logarithmic axis shows them): ' + lineList(lowLines) + '.');
    if (markers.outside.length) notes.push('Outside the file sizes swept: ' + markers.outside.join('; ') + '.');
    for (const e of entries) if (e.direct) notes.push(e.item.label + ' ran with direct I/O: every point is uncached.');
    const c = caption(wrap, notes);
    const verdicts = h('ul', {class: 'verdicts'});
    for (const e of entries) {
      const plateaus = [];
      if (isNum(e.curve.cached_mb_per_s)) plateaus.push('cached ' + fmtMBps(e.curve.cached_mb_per_s) + ' MB/s');
      if (isNum(e.curve.uncached_mb_per_s)) plateaus.push('uncached ' + fmtMBps(e.curve.uncached_mb_per_s) + ' MB/s');
      const verdict = str(e.curve.verdict, 'no analysis of this curve');
      verdicts.append(h('li', {}, h('b', {}, e.item.label + ': '), verdict + (plateaus.length ? ' (' + plateaus.join(', ') + ')' : '')));
    }
    c.append(verdicts);
    if (!wrap.contains(c)) wrap.append(c);
    return true;
  }

  // Knees and RAM sizes as vertical lines. A RAM size that several sweeps share is one
  // grey line (owner -1); the others belong to their sweep's series, so that its legend
  // entry hides them with it. Markers of one sweep at one size share a line and a label.
  function sweepMarkers(entries, xMin, xMax) {
    const byLine = new Map(); // "owner|bytes" -> marker
    const outside = [];
    const add = (owner, bytes, what, type, ownerText) => {
      const key = owner + '|' + bytes;
      if (!byLine.has(key)) byLine.set(key, {x: bytes, owner, parts: [], type, ownerText});
      const m = byLine.get(key);
      m.parts.push(what);
      if (type === 'solid') m.type = 'solid';
    };
    const ram = new Map(); // "client|bytes" -> {kind, bytes, slots}
    for (const e of entries) {
      if (isNum(e.curve.knee_bytes) && e.curve.knee_bytes > 0)
        add(e.slot, e.curve.knee_bytes, 'knee ' + fmtBytes(e.curve.knee_bytes), 'solid', e.item.label);
      for (const [field, kind] of [['client_bytes', 'client'], ['nas_bytes', 'NAS']]) {
        const bytes = e.ram[field];
        if (!isNum(bytes) || bytes <= 0) continue;
        const key = kind + '|' + bytes;
        if (!ram.has(key)) ram.set(key, {kind, bytes, slots: []});
        ram.get(key).slots.push(e.slot);
      }
    }
    const labelOf = new Map(entries.map((e) => [e.slot, e.item.label]));
    for (const {kind, bytes, slots} of ram.values()) {
      const owners = slots.map((slot) => labelOf.get(slot));
      const what = kind + ' RAM ' + fmtBytes(bytes);
      if (bytes < xMin || bytes > xMax) outside.push(what + ' (' + owners.join(', ') + ')');
      else if (slots.length === 1) add(slots[0], bytes, what, 'dashed', owners[0]);
      else add(-1, bytes, what, 'dashed', slots.length === entries.length ? '' : owners.join(', '));
    }
    const inside = [...byLine.values()].map((m) =>
      ({x: m.x, owner: m.owner, type: m.type, text: m.parts.join(' · ') + (m.ownerText ? ' (' + m.ownerText + ')' : '')}));
    return {inside, outside};
  }

  // Places the marker labels above the plot, centred on their line (or ending or starting
  // at it near the chart's edges), in as few rows as keep them apart at this width.
  function placeMarkerLabels(markers, ctx, widthPx) {
    const plotPx = Math.max(80, widthPx - SWEEP_GRID.left - SWEEP_GRID.right);
    const span = Math.log2(ctx.xMax) - Math.log2(ctx.xMin) || 1;
    const placed = markers.map((m) => {
      const x = SWEEP_GRID.left + (Math.log2(m.x) - Math.log2(ctx.xMin)) / span * plotPx;
      const w = textWidthPx(m.text, MARKER_FONT_PX) + 8;
      const fits = (left) => left >= 4 && left + w <= widthPx - 4;
      let align = 'center';
      let left = x - w / 2;
      if (!fits(left)) {
        // Ending at the line or starting at it; when neither fits, the side with more room.
        const end = fits(x - w) || (!fits(x) && x > widthPx / 2);
        align = end ? 'right' : 'left';
        left = end ? x - w : x;
      }
      return {m, align, left, right: left + w, row: 0};
    }).sort((a, b) => a.left - b.left);
    const rowEnds = [];
    for (const p of placed) {
      let row = rowEnds.findIndex((end) => end + 6 <= p.left);
      if (row < 0) row = rowEnds.length;
      rowEnds[row] = p.right;
      p.row = row;
    }
    return {placed, rows: rowEnds.length};
  }

  function markLineOf(data) {
    return {silent: true, symbol: ['none', 'none'], animation: false, data};
  }

  function sweepOption(ctx, widthPx, selected) {
    const option = baseOption(ctx.title, ctx.subtitle);
    const names = ctx.entries.map((e) => e.item.label);
    const legend = legendLayout(names, widthPx, selected);
    const plotWidthPx = widthPx - legend.right;
    const labels = placeMarkerLabels(ctx.markers, ctx, plotWidthPx);
    const markerPx = labels.rows * MARKER_ROW_PX;
    option.legend = legend.legend;
    option.grid = {left: SWEEP_GRID.left, right: SWEEP_GRID.right + legend.right, top: legend.top - 2 + markerPx,
      bottom: 58 + legend.bottom};
    // One axis label per power of two when there is room, else every 2nd, 4th...
    const powers = Math.log2(ctx.xMax) - Math.log2(ctx.xMin);
    const fit = Math.max(1, Math.floor((plotWidthPx - SWEEP_GRID.left - SWEEP_GRID.right) / 64));
    const step = [1, 2, 4, 8, 16].find((k) => powers / k <= fit) || 32;
    option.xAxis = valueAxis('File size (binary units, log₂ scale)', {type: 'log', logBase: 2, min: ctx.xMin, max: ctx.xMax,
      interval: step, nameGap: 32, axisLabel: {color: MUTED, fontSize: 11, formatter: (v) => fmtBytes(v), hideOverlap: true},
      splitLine: {show: true, lineStyle: {color: RULE}}});
    option.yAxis = valueAxis('Throughput (MB/s' + (ctx.logY ? ', log scale)' : ')'), ctx.logY ? {type: 'log', logBase: 10} : {min: 0});
    option.tooltip.trigger = 'axis';
    option.tooltip.axisPointer = {type: 'line', lineStyle: {color: '#8c959f'}};
    option.tooltip.formatter = (params) => {
      const rows = list(params).filter((p) => p.seriesName !== HELPER_SERIES && p.data && p.data.value);
      if (!rows.length) return '';
      let out = '<div class="tt-head">' + escapeHtml(fmtBytes(rows[0].data.value[0])) + ' file</div>';
      for (const p of rows) {
        const [x, y] = p.data.value;
        const at = x === rows[0].data.value[0] ? '' : ' at ' + fmtBytes(x);
        out += tooltipRow(p.marker, p.seriesName + at, fmtMBps(y) + ' MB/s, ' + (p.data.cached ? 'cached' : 'uncached'));
      }
      return out;
    };
    const own = new Map(ctx.entries.map((e) => [e.slot, []])); // a sweep's slot -> its markers
    const shared = [];
    for (const p of labels.placed) {
      const colour = p.m.owner >= 0 ? PALETTE[p.m.owner % PALETTE.length] : MARKER_GREY;
      const text = p.m.text;
      (p.m.owner >= 0 ? own.get(p.m.owner) : shared).push({xAxis: p.m.x, name: text,
        lineStyle: {color: colour, type: p.m.type, width: p.m.type === 'solid' ? 1.6 : 1.3},
        label: {formatter: () => text, position: 'end', distance: [0, 3 + p.row * MARKER_ROW_PX], align: p.align,
          color: textColour(colour), fontSize: MARKER_FONT_PX, backgroundColor: 'rgba(255,255,255,0.85)', padding: [1, 3]}});
    }
    option.series = ctx.entries.map((e) => {
      const colour = PALETTE[e.slot % PALETTE.length];
      const symbol = SYMBOLS[e.slot % SYMBOLS.length];
      return {
        type: 'line', name: e.item.label, symbol, symbolSize: 8, showAllSymbol: true, z: 3,
        itemStyle: {color: colour, borderColor: colour},
        lineStyle: {color: colour, width: 2, type: DASHES[e.slot % DASHES.length]},
        data: e.points.map((p) => {
          const y = isNum(p.mb_per_s) && !(ctx.logY && p.mb_per_s <= 0) ? p.mb_per_s : null;
          const cached = p.cached === true;
          return {value: [p.file_bytes, y], cached, symbol: cached ? symbol : emptySymbol(symbol)};
        }),
        markLine: markLineOf(own.get(e.slot)),
      };
    });
    // The helper series draws what belongs to no single sweep, and its invisible points
    // stretch the MB/s axis to the reference lines.
    const drawnLines = (ctx.logY ? ctx.shownLines.concat(ctx.lowLines) : ctx.shownLines).slice().sort((a, b) => a.mb_per_s - b.mb_per_s);
    const refLines = referenceLines(drawnLines, ctx, widthPx - legend.right, 440 + markerPx - option.grid.top - option.grid.bottom);
    option.series.push({
      type: 'line', name: HELPER_SERIES, silent: true, symbol: 'none', lineStyle: {opacity: 0}, z: 2,
      tooltip: {show: false}, data: drawnLines.map((l) => [ctx.xMin, l.mb_per_s]),
      markLine: markLineOf(refLines.concat(shared)),
    });
    return {option, heightPx: Math.max(440 + markerPx + legend.bottom, legend.minHeight)};
  }

  // Horizontal reference lines, lowest first. Labels of lines closer than two label
  // heights on the plot are staggered along the line, each left of the one below it.
  function referenceLines(lines, ctx, plotWidthPx, plotHeightPx) {
    const top = Math.max(...lines.map((l) => l.mb_per_s), ...ctx.entries.flatMap((e) => e.points.map((p) => p.mb_per_s)).filter(isNum));
    const yPx = (v) => (ctx.logY ? Math.log10(Math.max(v, 1e-9)) / Math.log10(Math.max(top, 10)) : v / top) * plotHeightPx;
    let prev = -Infinity;
    let prevEnd = 0; // how far left of the plot's end the previous label reaches
    return lines.map((l) => {
      const label = str(l.label, 'reference') + ' ' + fmtLineMBps(l.mb_per_s) + ' MB/s';
      const y = yPx(l.mb_per_s);
      const offset = y - prev < 2 * MARKER_ROW_PX ? Math.min(prevEnd + 8, Math.max(0, plotWidthPx / 2)) : 0;
      prev = y;
      prevEnd = offset + textWidthPx(label, 11) + 6;
      return {yAxis: l.mb_per_s, name: label, lineStyle: {color: MARKER_GREY, type: [8, 4], width: 1.2},
        label: {formatter: () => label, position: 'insideEndTop', distance: [offset, 2],
          color: MARKER_GREY, fontSize: 11, backgroundColor: 'rgba(255,255,255,0.85)', padding: [1, 3]}};
    });
  }

  // ---------------------------------------------------------------- 2. grouped bars
  function renderBars(root, model) {
    const s = section(root, 'bars', 'Throughput by test (quick suites, runs and imports)');
    const measures = model.measures.filter((m) => isNum(m.figures.mb_per_s));
    if (!measures.length) {
      skipNote(s, 'No quick suite, run or import with throughput was selected.');
      return;
    }
    const items = model.barItems.filter((it) => measures.some((m) => m.item === it));
    const categories = model.categories.filter((c) => measures.some((m) => m.category === c));
    const cell = new Map(measures.map((m) => [m.item.key + '\u0000' + m.category, m]));
    const values = items.map((it) => categories.map((c) => {
      const m = cell.get(it.key + '\u0000' + c);
      return m ? m.figures.mb_per_s : null;
    }));
    // Two or three items compare against the first (before/after, or two candidates).
    const pair = items.length === 2 || items.length === 3;
    const shown = Math.min(items.length, MAX_SHOWN_SERIES);
    const barPx = shown <= 3 ? 18 : shown <= 8 ? 12 : 7;
    const labels = barPx >= 12 && shown * categories.length <= 160;
    const title = 'Throughput by test and direction';
    const names = items.map((it) => it.label);
    const subtitle = pair ? 'before/after: “' + items[0].label + '” → ' + items.slice(1).map((it) => '“' + it.label + '”').join(', ')
      : 'MB/s, longer is faster';
    addChart(s, 'chart-bars', title, names, (widthPx, selected) =>
      barsOption({title, subtitle, names, items, categories, cell, values, pair, labels}, widthPx, selected,
        categories.length * (shown * barPx + 16)));
    const notes = [];
    if (pair) notes.push('Before/after: the bars of ' + items.slice(1).map((it) => '“' + it.label + '”').join(' and ') +
      ' are labelled with their change against “' + items[0].label + '”.');
    if (!labels) notes.push('Hover a bar for its value.');
    if (measures.some((m) => m.run.partial === true)) notes.push('Faded bars with a dashed outline are partial runs (stopped before the end).');
    notes.push(hiddenNote(names));
    caption(s, notes);
  }

  function barsOption(ctx, widthPx, selected, barsPx) {
    const {items, categories, cell, values, pair} = ctx;
    const option = baseOption(ctx.title, ctx.subtitle);
    const legend = legendLayout(ctx.names, widthPx, selected);
    option.legend = legend.legend;
    option.grid = {left: 12, right: (pair ? 120 : 64) + legend.right, top: legend.top, bottom: 52 + legend.bottom};
    option.xAxis = valueAxis('Throughput (MB/s)', {min: 0, nameGap: 30});
    option.yAxis = {type: 'category', data: categories, inverse: true, axisLabel: {color: INK, fontSize: 12},
      axisTick: {alignWithLabel: true}, axisLine: {lineStyle: {color: '#8c959f'}}};
    option.tooltip.trigger = 'axis';
    option.tooltip.axisPointer = {type: 'shadow'};
    option.tooltip.formatter = (params) => {
      const rows = list(params);
      if (!rows.length) return '';
      const category = categories[rows[0].dataIndex];
      let out = '<div class="tt-head">' + escapeHtml(category) + '</div>';
      for (const p of rows) {
        const m = cell.get(items[p.seriesIndex].key + '\u0000' + category);
        if (!m) continue;
        out += tooltipRow(p.marker, p.seriesName, runSummary(m, pair && p.seriesIndex > 0 ? values[0][p.dataIndex] : null));
      }
      return out;
    };
    option.series = items.map((it, i) => {
      const colour = PALETTE[i % PALETTE.length];
      return {
        type: 'bar', name: it.label, barMaxWidth: 22, barGap: '15%', barCategoryGap: '22%',
        itemStyle: {color: colour},
        label: {show: ctx.labels, position: 'right', fontSize: 11, color: INK,
          formatter: (p) => barLabel(p.value, pair && i > 0 ? values[0][p.dataIndex] : null)},
        data: values[i].map((v, j) => {
          const m = cell.get(it.key + '\u0000' + categories[j]);
          if (!m || m.run.partial !== true) return v;
          return {value: v, itemStyle: {color: colour, opacity: 0.45, borderColor: colour, borderType: 'dashed', borderWidth: 1.5}};
        }),
      };
    });
    return {option, heightPx: Math.max(legend.top + 52 + legend.bottom + barsPx, legend.minHeight)};
  }

  function barLabel(v, base) {
    if (!isNum(v)) return '';
    let text = fmtMBps(v);
    if (isNum(base) && base > 0) text += ' (' + fmtPct((v - base) / base * 100) + ')';
    return text;
  }

  function runSummary(m, base) {
    const f = m.figures;
    const parts = [fmtMBps(f.mb_per_s) + ' MB/s'];
    if (isNum(base) && base > 0 && isNum(f.mb_per_s)) parts[0] += ' (' + fmtPct((f.mb_per_s - base) / base * 100) + ')';
    if (isNum(f.iops)) parts.push(fmtNumber(f.iops, f.iops >= 100 ? 0 : 1) + ' IOPS');
    const lat = record(f.lat_us);
    if (isNum(lat.p99) && lat.p99 > 0) parts.push('p99 ' + fmtUs(lat.p99));
    const rep = record(m.run.repeats);
    if (isNum(rep.count) && rep.count > 1) {
      const ci = record(rep.ci95_mb_per_s);
      let r = 'median of ' + rep.count;
      if (isNum(ci.low) && isNum(ci.high)) r += ', 95 % CI ' + fmtMBps(ci.low) + '–' + fmtMBps(ci.high);
      if (isNum(rep.spread_pct)) r += ', spread ' + rep.spread_pct.toFixed(1) + ' %';
      if (rep.noisy === true) r += ', noisy';
      parts.push(r);
    }
    if (m.run.partial === true) parts.push('partial');
    if (m.run.id != null) parts.push('run #' + m.run.id);
    return parts.join(' · ');
  }

  // Lines of the measures: colour by test and direction, dash and symbol by item.
  // Hovering a line fades the others, unless there are so many that it would be slow.
  function measureSeries(m, data, count, extra) {
    const colour = PALETTE[m.categorySlot % PALETTE.length];
    return Object.assign({
      type: 'line', name: m.name, data, symbol: SYMBOLS[m.itemSlot % SYMBOLS.length], symbolSize: 7,
      itemStyle: {color: colour}, lineStyle: {color: colour, width: 2, type: DASHES[m.itemSlot % DASHES.length]},
      emphasis: count <= MAX_SHOWN_SERIES ? {focus: 'series'} : {},
    }, extra || {});
  }

  // ---------------------------------------------------------------- 2b. many clients
  // One chart per many-clients run (`mpirun -n N nasperf run`): a bar per rank and
  // direction with the rank's own MB/s, as rank 0 merged them (run.cluster.each). A rank
  // that sent no result gets its row and a "no result" label, never a bar at 0 MB/s.
  const RANK_READ = PALETTE[0];
  const RANK_WRITE = PALETTE[1];
  const RANK_MISSING = PALETTE[3];
  const SPREAD_FLAG_PCT = 10;

  function clusterRuns(model) {
    const out = [];
    for (const item of model.barItems)
      for (const run of item.runs) if (list(record(run.cluster).each).length) out.push({item, run});
    return out;
  }

  function renderRanks(root, model) {
    const runs = clusterRuns(model);
    if (!runs.length) return;
    const s = section(root, 'ranks', 'Many clients: throughput per rank',
      'Each bar is one rank\'s own MB/s (10⁶ B/s) over its own measured time; the run\'s total is the sum of the ranks\' ' +
      'rates. A rank that sent no result is named, not drawn as 0 MB/s.');
    runs.forEach(({item, run}, n) => {
      const c = record(run.cluster);
      const ranks = list(c.each).map(record);
      const wrap = h('div', {class: 'chart-wrap'});
      s.append(wrap);
      const categories = ranks.map((r) => 'rank ' + str(r.rank, '?') + (r.host ? ' · ' + r.host : ''));
      const dirs = DIRECTIONS.filter((dir) => ranks.some((r) => r.reported !== false && isNum(record(r[dir]).mb_per_s)));
      const title = 'Per-rank throughput: ' + item.label + ' (' + str(c.ranks, ranks.length) + ' ranks)';
      const total = DIRECTIONS.filter((dir) => isNum(record(run[dir]).mb_per_s))
        .map((dir) => dir + ' ' + fmtMBps(record(run[dir]).mb_per_s) + ' MB/s').join(', ');
      const subtitle = 'merged total: ' + (total || 'none') + (run.partial === true ? ' · partial' : '');
      const names = dirs.concat(ranks.some((r) => r.reported === false) ? ['no result'] : []);
      addChart(wrap, 'chart-ranks-' + (n + 1), title, names, (widthPx, selected) =>
        ranksOption({title, subtitle, ranks, categories, dirs, names}, widthPx, selected));
      caption(wrap, rankNotes(run, c, ranks));
    });
  }

  function rankNotes(run, c, ranks) {
    const notes = [];
    const total = DIRECTIONS.filter((dir) => isNum(record(run[dir]).mb_per_s))
      .map((dir) => fmtMBps(record(run[dir]).mb_per_s) + ' MB/s ' + dir).join(' + ');
    if (total) notes.push('Merged total: ' + total + ' (the sum of the ranks\' own rates).');
    if (c.stonewall === false)
      notes.push('Stonewall off: each rank ran its whole job; the total sums each rank\'s rate over its own time.');
    else if (isNum(c.window_s))
      notes.push('Stonewall window: ' + fmtNumber(c.window_s, 3) + ' s while every rank ran (every rank stopped when the first finished).');
    if (isNum(c.start_skew_us)) notes.push('Start skew: ' + fmtUs(c.start_skew_us) + ' (latest start − earliest start, CLOCK_REALTIME).');
    if (isNum(c.first_done_s) && isNum(c.last_done_s))
      notes.push('First done ' + fmtNumber(c.first_done_s, 3) + ' s, last done ' + fmtNumber(c.last_done_s, 3) + ' s' +
        (isNum(c.last_done_mb_per_s) ? ': ' + fmtMBps(c.last_done_mb_per_s) + ' MB/s over the whole span' : '') + '.');
    if (isNum(c.spread_pct))
      notes.push('Spread: the fastest rank is ' + fmtNumber(c.spread_pct, 1) + ' % above the slowest' +
        (c.spread_flagged === true || c.spread_pct > SPREAD_FLAG_PCT ? ' — UNEVEN (over ' + SPREAD_FLAG_PCT + ' %).' : '.'));
    for (const r of ranks) {
      if (r.reported === false) notes.push('rank ' + str(r.rank, '?') + ': ' + noResultText(r) + '.');
      else if (r.partial === true) notes.push('rank ' + str(r.rank, '?') + ': partial' + (r.error ? ' (' + r.error + ')' : '') + '.');
    }
    return notes;
  }

  // "no result (the rank was killed or lost)": rank 0's words, without a second "no result".
  function noResultText(r) {
    const why = str(r.error, '');
    return why.startsWith('no result') ? why : 'no result' + (why ? ': ' + why : '');
  }

  function ranksOption(ctx, widthPx, selected) {
    const {ranks, categories, dirs} = ctx;
    const option = baseOption(ctx.title, ctx.subtitle);
    const legend = legendLayout(ctx.names, widthPx, selected);
    option.legend = legend.legend;
    option.grid = {left: 12, right: 150 + legend.right, top: legend.top, bottom: 52 + legend.bottom, containLabel: true};
    option.xAxis = valueAxis('Throughput of the rank (MB/s)', {min: 0, nameGap: 30});
    option.yAxis = {type: 'category', data: categories, inverse: true, axisLabel: {color: INK, fontSize: 12},
      axisTick: {alignWithLabel: true}, axisLine: {lineStyle: {color: '#8c959f'}}};
    option.tooltip.trigger = 'item';
    option.tooltip.formatter = (p) => {
      const r = ranks[p.dataIndex] || {};
      let out = '<div class="tt-head">' + escapeHtml(categories[p.dataIndex] || '') + '</div>';
      if (r.reported === false) return out + '<div>' + escapeHtml(noResultText(r)) + '</div>';
      const f = record(r[p.seriesName]);
      out += tooltipRow(p.marker, p.seriesName, fmtMBps(f.mb_per_s) + ' MB/s');
      if (isNum(f.iops)) out += tooltipRow('', 'IOPS', fmtNumber(f.iops, 0));
      if (isNum(record(f.lat_us).p99)) out += tooltipRow('', 'p99', fmtUs(record(f.lat_us).p99));
      if (isNum(r.seconds)) out += tooltipRow('', 'own time', fmtNumber(r.seconds, 3) + ' s');
      if (isNum(r.start_offset_s)) out += tooltipRow('', 'started', '+' + fmtNumber(r.start_offset_s * 1000, 3) + ' ms');
      return out;
    };
    option.series = dirs.map((dir) => {
      const colour = dir === 'read' ? RANK_READ : RANK_WRITE;
      return {type: 'bar', name: dir, barMaxWidth: 22, barGap: '15%', itemStyle: {color: colour},
        label: {show: true, position: 'right', fontSize: 11, color: INK, formatter: (p) => (isNum(p.value) ? fmtMBps(p.value) + ' MB/s' : '')},
        data: ranks.map((r) => {
          const v = record(r[dir]).mb_per_s;
          if (r.reported === false || !isNum(v)) return null;
          if (r.partial !== true) return v;
          return {value: v, itemStyle: {color: colour, opacity: 0.45, borderColor: colour, borderType: 'dashed', borderWidth: 1.5}};
        })};
    });
    if (ranks.some((r) => r.reported === false)) {
      // A bar of no length that carries the words: the rank's row says it sent nothing.
      option.series.push({type: 'bar', name: 'no result', barMaxWidth: 22, itemStyle: {color: RANK_MISSING}, silent: false,
        label: {show: true, position: 'right', fontSize: 11, color: textColour(RANK_MISSING), fontWeight: 600,
          formatter: (p) => noResultText(ranks[p.dataIndex] || {}).slice(0, 70)},
        data: ranks.map((r) => (r.reported === false ? {value: 0, missing: true} : null))});
    }
    const perRow = Math.max(1, option.series.length);
    return {option, heightPx: Math.max(legend.top + 52 + legend.bottom + ranks.length * (perRow * 16 + 18), legend.minHeight)};
  }

  // ---------------------------------------------------------------- 2c. block-size mixes
  // A table per run with a block-size mix (`--bs 4k/30:64k/70`): each size's own figures
  // (run.per_size, from its own histogram) under the run's total, per direction.
  function renderPerSize(root, model) {
    const runs = [];
    for (const item of model.barItems)
      for (const run of item.runs) if (list(run.per_size).length) runs.push({item, run});
    if (!runs.length) return;
    const s = section(root, 'sizes', 'Block-size mixes: results per size',
      'Each row is one block size of the mix, with its own bytes, I/Os and latency; the total row is the whole run. ' +
      'Share: the size\'s I/Os as % of the direction\'s I/Os in this run (measured, not the mix asked).');
    for (const {item, run} of runs) {
      const head = h('tr', {}, ['Block size', 'Direction', 'Share of I/Os', 'MB/s', 'IOPS', 'mean µs', 'p50 µs', 'p99 µs', 'max µs']
        .map((t) => h('th', {scope: 'col'}, t)));
      const body = h('tbody');
      for (const dir of DIRECTIONS) {
        const whole = record(run[dir]);
        if (!isNum(whole.mb_per_s)) continue;
        const rows = list(run.per_size).map(record).filter((e) => isNum(record(e[dir]).mb_per_s));
        const ios = rows.reduce((sum, e) => sum + (isNum(record(e[dir]).ios) ? record(e[dir]).ios : 0), 0);
        for (const e of rows) body.append(sizeRow(fmtBytes(e.bs), dir, record(e[dir]), ios));
        body.append(sizeRow('total', dir, whole, 0, 'total'));
      }
      const table = h('table', {class: 'figures per-size', 'data-run': str(run.id, '')}, h('thead', {}, head), body);
      s.append(h('div', {class: 'chart-wrap'}, h('h3', {}, item.label + ' · ' + runLabel(run) +
        (run.id != null ? ' · run #' + run.id : '')), h('div', {class: 'table-scroll'}, table)));
    }
  }

  function sizeRow(size, dir, f, ios, cls) {
    const lat = record(f.lat_us);
    const share = ios > 0 && isNum(f.ios) ? fmtNumber(f.ios / ios * 100, 1) + ' %' : '';
    const cells = [size, dir, share, fmtMBps(f.mb_per_s), isNum(f.iops) ? fmtNumber(f.iops, 0) : 'n/a',
      fmtLatCell(lat.mean), fmtLatCell(lat.p50), fmtLatCell(lat.p99), fmtLatCell(lat.max)];
    return h('tr', {class: cls || null}, cells.map((c, i) => (i === 0 ? h('th', {scope: 'row'}, c) : h('td', {}, c))));
  }

  function fmtLatCell(v) {
    return isNum(v) ? fmtNumber(v, Math.abs(v) >= 100 ? 0 : 1) : 'n/a';
  }

  // ---------------------------------------------------------------- 2d. paced runs
  // A table of the runs paced by --rate / --rate-iops / --think: what the schedule asked,
  // what the run achieved, and latency from each I/O's intended start beside the service
  // time from its actual submit (the difference is the queueing behind the schedule).
  function renderPacing(root, model) {
    const runs = [];
    for (const item of model.barItems)
      for (const run of item.runs) if (run.pacing && typeof run.pacing === 'object') runs.push({item, run});
    if (!runs.length) return;
    const s = section(root, 'pacing', 'Paced runs: schedule, achieved rate, latency from the intended start',
      'Rates are the job\'s total over all threads. Latency is timed from each I/O\'s intended start on the schedule ' +
      '(what a user of the storage waited); service time from its actual submit (both in µs). A latency well above the service time ' +
      'is queueing behind a slow I/O or a late client.');
    const head = h('tr', {}, ['Run', 'Target', 'Achieved', 'Sustained', 'Direction', 'p50 latency', 'p50 service',
      'p99 latency', 'p99 service'].map((t) => h('th', {scope: 'col'}, t)));
    const body = h('tbody');
    for (const {item, run} of runs) {
      const p = record(run.pacing);
      const byIops = isNum(p.target_iops) && p.target_iops > 0;
      const target = byIops ? fmtNumber(p.target_iops, 0) + ' IOPS'
        : isNum(p.target_mb_per_s) ? fmtMBps(p.target_mb_per_s) + ' MB/s' : 'think time only';
      const achieved = byIops || !isNum(p.target_mb_per_s)
        ? (isNum(p.achieved_iops) ? fmtNumber(p.achieved_iops, 1) + ' IOPS' : 'n/a')
        : (isNum(p.achieved_mb_per_s) ? fmtMBps(p.achieved_mb_per_s) + ' MB/s' : 'n/a');
      const scheduled = byIops || (isNum(p.target_mb_per_s) && p.target_mb_per_s > 0);
      // Think time alone schedules nothing: a closed loop has no target to sustain, and
      // its latency is from the submit.
      const sustained = !scheduled ? '— (closed loop, latency from submit)'
        : p.sustained === false
          ? 'no: ' + (isNum(p.excess_pct) && p.excess_pct > 0 ? fmtNumber(p.excess_pct, 1) + ' % over'
            : isNum(p.shortfall_pct) ? fmtNumber(p.shortfall_pct, 1) + ' % short' : 'short')
          : 'yes (within 1 %)';
      const dirs = DIRECTIONS.filter((dir) => isNum(record(record(run[dir]).lat_us).p50));
      dirs.forEach((dir, i) => {
        const lat = record(record(run[dir]).lat_us);
        const svc = record(p[dir + '_service_us']);
        const first = i === 0 ? [h('th', {scope: 'row', rowspan: dirs.length}, item.label + ' · ' + runLabel(run) +
          (run.id != null ? ' · #' + run.id : '')), h('td', {rowspan: dirs.length}, target),
          h('td', {rowspan: dirs.length}, achieved), h('td', {rowspan: dirs.length, class: p.sustained === false ? 'short' : null}, sustained)] : [];
        body.append(h('tr', {}, first, h('td', {}, dir), h('td', {}, fmtUs(lat.p50)), h('td', {}, fmtUs(svc.p50)),
          h('td', {}, fmtUs(lat.p99)), h('td', {}, fmtUs(svc.p99))));
      });
    }
    s.append(h('div', {class: 'table-scroll'}, h('table', {class: 'figures pacing'}, h('thead', {}, head), body)));
  }

  // ---------------------------------------------------------------- 2e. application workloads
  // The runs of `nasperf app file-copy|dir-copy|backup|restore|video|photo-album|office`
  // (run.app, include/nasperf/app_result.h): a bar per run of its payload MB/s, grouped by
  // workload and cache state — a cold run never shares a group with a warm one, as `results
  // compare` refuses to mix them (issue 18) — then per run a table of its figures, its own
  // score and its per-operation latency. Every label is read from the run.
  const CACHE_STATES = ['cold', 'warm', 'unknown'];
  const CACHE_COLOUR = {cold: PALETTE[0], warm: PALETTE[1], unknown: PALETTE[4]};
  // Decals give the states a pattern as well as a colour (print, colour-vision).
  const CACHE_DECAL = {cold: null, warm: {symbol: 'rect', dashArrayX: [1, 0], dashArrayY: [3, 5], rotation: -Math.PI / 4,
    color: 'rgba(255,255,255,0.55)'}, unknown: {symbol: 'circle', symbolSize: 0.5, dashArrayX: [[4, 4], [0, 4, 4, 0]],
    dashArrayY: [4, 0], color: 'rgba(255,255,255,0.6)'}};

  function appRuns(model) {
    const out = [];
    for (const item of model.barItems)
      for (const run of item.runs) {
        const app = record(run.app);
        if (typeof app.workload === 'string' && app.workload) out.push({item, run, app});
      }
    return out;
  }

  // The state as the run recorded it; anything else (absent, a future word) is its own text.
  function cacheStateOf(app) {
    return str(app.cache_state, 'not checked');
  }

  function fillText(app) {
    return isNum(app.fill_pct) ? fmtNumber(app.fill_pct, 1) + ' %' : '';
  }

  // "fc (#1)": the item's label, and the run's id when the item has several runs.
  function appRunName(e) {
    const id = e.run.id != null ? '#' + e.run.id : '';
    return id && !e.item.label.includes(id) ? e.item.label + ' (' + id + ')' : e.item.label;
  }

  function renderApps(root, model) {
    const runs = appRuns(model);
    if (!runs.length) return;
    const s = section(root, 'apps', 'Application workloads',
      'Each bar is one stored run of “nasperf app”: its payload MB/s (10⁶ B/s: bytes moved / elapsed seconds, timed ' +
      'first open to last close). Hover a bar for its elapsed time and files/s; the tables below give each run\'s own ' +
      'score and its per-operation latency.');
    renderAppBars(s, runs);
    renderAppTimeline(s, model);
    for (const e of runs) renderAppRun(s, e);
  }

  // The app runs' per-second samples on a scale of their own (the throughput-over-time
  // chart below has them too, beside runs that may be a hundred times faster): a
  // file-copy that outlasts the destination's write cache drops where the cache filled.
  function renderAppTimeline(s, model) {
    const rows = [];
    for (const m of model.measures) {
      if (!record(m.run.app).workload) continue;
      const key = m.dir + '_mb_per_s';
      const data = list(m.run.samples).map(record).filter((p) => isNum(p.t_s) && isNum(p[key])).map((p) => [p.t_s, p[key]]);
      if (data.length) rows.push({m, data});
    }
    if (!rows.length) return;
    const wrap = h('div', {class: 'chart-wrap'});
    s.append(wrap);
    const note = addRunChart(wrap, 'chart-apps-timeline', 'Application runs: payload MB/s each second', rows, timelineOption);
    caption(wrap, 'Each run\'s per-second samples as it stored them (read and write MB/s each second). A file-copy that ' +
      'outlasts the destination\'s write cache drops where the cache filled (the write-cache cliff); a run shorter than ' +
      'a second has one point.', note);
  }

  // Groups: workload, then cache state, in the order the runs first show them.
  function appGroups(runs) {
    const groups = new Map();
    for (const e of runs) {
      const key = e.app.workload + ' · ' + cacheStateOf(e.app);
      if (!groups.has(key)) groups.set(key, {key, workload: e.app.workload, state: cacheStateOf(e.app), runs: []});
      groups.get(key).runs.push(e);
    }
    return [...groups.values()].sort((a, b) => a.workload.localeCompare(b.workload)); // stable within a workload
  }

  function renderAppBars(s, runs) {
    const groups = appGroups(runs);
    const rows = groups.flatMap((g) => g.runs.map((e) => ({e, group: g})));
    const states = [...new Set(rows.map((r) => r.group.state))]
      .sort((a, b) => (CACHE_STATES.indexOf(a) + 1 || 9) - (CACHE_STATES.indexOf(b) + 1 || 9));
    const wrap = h('div', {class: 'chart-wrap'});
    s.append(wrap);
    const title = 'Application workloads: MB/s per run';
    const names = states.map((st) => 'cache ' + st);
    addChart(wrap, 'chart-apps', title, names, (widthPx, selected) => appBarsOption({title, rows, groups, states, names}, widthPx, selected));
    const mixed = [...new Set(groups.map((g) => g.workload))].filter((w) => groups.filter((g) => g.workload === w).length > 1);
    const notes = ['Runs are grouped by workload and by cache state (cold, warm or unknown, as each run checked it), and ' +
      'each bar\'s label and colour name its state: runs of different states are not alike and are never set in one group ' +
      '(“results compare” refuses to compare them).'];
    if (mixed.length) notes.push('Runs of more than one cache state: ' + mixed.map((w) => w + ' (' +
      groups.filter((g) => g.workload === w).map((g) => g.state).join(', ') + ')').join('; ') + ' — compare bars only within a group.');
    if (rows.some((r) => isNum(r.e.app.fill_pct))) notes.push('“fill” is the volume\'s fill level during the run (--fill, measured by statfs).');
    if (rows.some((r) => r.e.run.partial === true)) notes.push('Faded bars with a dashed outline are partial runs (stopped before the end).');
    caption(wrap, notes);
  }

  function appBarLabel(e) {
    const parts = [fmtMBps(e.app.mb_per_s) + ' MB/s', cacheStateOf(e.app)];
    if (isNum(e.app.fill_pct)) parts.push('fill ' + fillText(e.app));
    if (e.run.partial === true) parts.push('partial');
    return parts.join(' · ');
  }

  function appBarsOption(ctx, widthPx, selected) {
    const {rows, groups, states} = ctx;
    const option = baseOption(ctx.title, 'MB/s = 10⁶ B/s of payload; grouped by workload and cache state');
    const legend = legendLayout(ctx.names, widthPx, selected);
    option.legend = legend.legend;
    option.grid = {left: 12, right: 200 + legend.right, top: legend.top, bottom: 52 + legend.bottom, containLabel: true};
    const categories = rows.map((r) => r.group.key + ' · ' + appRunName(r.e));
    option.xAxis = valueAxis('Payload throughput (MB/s)', {min: 0, nameGap: 30});
    option.yAxis = {type: 'category', data: categories, inverse: true, axisLabel: {color: INK, fontSize: 12},
      axisTick: {alignWithLabel: true}, axisLine: {lineStyle: {color: '#8c959f'}}};
    option.tooltip.trigger = 'item';
    option.tooltip.formatter = (p) => {
      const r = rows[p.dataIndex];
      if (!r) return '';
      const a = r.e.app;
      let out = '<div class="tt-head">' + escapeHtml(categories[p.dataIndex]) + '</div>';
      out += tooltipRow(p.marker, 'throughput', fmtMBps(a.mb_per_s) + ' MB/s');
      if (isNum(a.elapsed_s)) out += tooltipRow('', 'elapsed', fmtNumber(a.elapsed_s, a.elapsed_s >= 10 ? 1 : 3) + ' s');
      if (isNum(a.files_per_s)) out += tooltipRow('', 'files/s', fmtNumber(a.files_per_s, a.files_per_s >= 100 ? 0 : 1));
      if (isNum(a.bytes)) out += tooltipRow('', 'payload', fmtBytes(a.bytes) + (isNum(a.files) ? ' in ' + a.files + ' file' + (a.files === 1 ? '' : 's') : ''));
      out += tooltipRow('', 'cache', cacheStateOf(a));
      if (isNum(a.fill_pct)) out += tooltipRow('', 'volume fill', fillText(a));
      if (r.e.run.partial === true) out += '<div>partial: stopped before the end</div>';
      return out;
    };
    // A series per cache state, each with values only on its own rows, overlaid in one slot.
    option.series = states.map((st) => {
      const colour = CACHE_COLOUR[st] || MARKER_GREY;
      const decal = CACHE_DECAL[st] || null;
      return {
        type: 'bar', name: 'cache ' + st, barMaxWidth: 22, barGap: '-100%', barCategoryGap: '30%',
        itemStyle: {color: colour, decal},
        label: {show: true, position: 'right', fontSize: 11, color: INK, formatter: (p) => (rows[p.dataIndex] ? appBarLabel(rows[p.dataIndex].e) : '')},
        data: rows.map((r) => {
          if (r.group.state !== st || !isNum(r.e.app.mb_per_s)) return null;
          if (r.e.run.partial !== true) return r.e.app.mb_per_s;
          return {value: r.e.app.mb_per_s, itemStyle: {color: colour, decal, opacity: 0.45, borderColor: colour, borderType: 'dashed', borderWidth: 1.5}};
        }),
      };
    });
    // A band per group, alternately shaded, so that the groups read apart (the axis names them).
    let first = 0;
    const bands = groups.map((g, i) => {
      const band = [{yAxis: first - 0.5, name: g.key, itemStyle: {color: i % 2 ? 'rgba(0,0,0,0)' : 'rgba(31,35,40,0.05)'}},
        {yAxis: first + g.runs.length - 0.5}];
      first += g.runs.length;
      return band;
    });
    if (option.series.length)
      option.series[0].markArea = {silent: true, label: {show: false}, data: bands};
    return {option, heightPx: Math.max(legend.top + 52 + legend.bottom + rows.length * 34 + groups.length * 16, legend.minHeight)};
  }

  // Per run: its figures and score in one row, then its operations and (video) streams.
  function renderAppRun(s, e) {
    const a = e.app;
    const wrap = h('div', {class: 'chart-wrap app-run', 'data-run': str(e.run.id, '')});
    s.append(wrap);
    wrap.append(h('h3', {}, a.workload + ' · ' + appRunName(e) + (e.run.partial === true ? ' · partial' : '')));
    const head = ['Workload', 'From → to', 'Elapsed s', 'MB/s', 'Files/s', 'Cache', 'Fill', 'Score'];
    const fill = fillText(a);
    const cells = [a.workload, str(a.from, '—') + ' → ' + str(a.to, '—'),
      isNum(a.elapsed_s) ? fmtNumber(a.elapsed_s, a.elapsed_s >= 10 ? 1 : 3) : 'n/a', fmtMBps(a.mb_per_s),
      isNum(a.files_per_s) ? fmtNumber(a.files_per_s, a.files_per_s >= 100 ? 0 : 1) : '—', cacheStateOf(a), fill || '—',
      appScore(e)];
    const row = h('tr', {}, cells.map((c, i) => h('td', {class: i === 7 ? 'score' : i === 5 ? 'cache-' + cacheStateOf(a) : null,
      title: i === 6 && !fill ? 'no --fill: the level was not recorded' : null}, c)));
    wrap.append(h('div', {class: 'table-scroll'}, h('table', {class: 'figures app-figures'},
      h('thead', {}, h('tr', {}, head.map((t) => h('th', {scope: 'col'}, t)))), h('tbody', {}, row))));
    const ops = list(a.ops).map(record).filter((o) => typeof o.op === 'string');
    if (ops.length) {
      const opHead = ['Operation', 'Count', 'mean µs', 'p50 µs', 'p99 µs', 'max µs'];
      const body = h('tbody', {}, ops.map((o) => h('tr', {}, h('th', {scope: 'row'}, o.op),
        h('td', {}, isNum(o.count) ? fmtNumber(o.count, 0) : 'n/a'), h('td', {}, fmtLatCell(o.mean_us)),
        h('td', {}, fmtLatCell(o.p50_us)), h('td', {}, fmtLatCell(o.p99_us)), h('td', {}, fmtLatCell(o.max_us)))));
      wrap.append(h('div', {class: 'table-scroll'}, h('table', {class: 'figures app-ops'},
        h('thead', {}, h('tr', {}, opHead.map((t) => h('th', {scope: 'col'}, t)))), body)));
    }
    const streams = list(a.streams).map(record);
    if (streams.length) {
      const stHead = ['Stream', 'Direction', 'Chunks', 'Deadline misses', 'Stall s', 'late p99 µs'];
      const body = h('tbody', {}, streams.map((st) => h('tr', {class: isNum(st.deadline_misses) && st.deadline_misses > 0 ? 'missed' : null},
        h('th', {scope: 'row'}, str(st.index, '?')), h('td', {}, str(st.dir, '')), h('td', {}, isNum(st.chunks) ? fmtNumber(st.chunks, 0) : 'n/a'),
        h('td', {}, isNum(st.deadline_misses) ? fmtNumber(st.deadline_misses, 0) : 'n/a'),
        h('td', {}, isNum(st.stall_s) ? fmtNumber(st.stall_s, 3) : 'n/a'), h('td', {}, fmtLatCell(st.late_p99_us)))));
      wrap.append(h('div', {class: 'table-scroll'}, h('table', {class: 'figures app-streams'},
        h('thead', {}, h('tr', {}, stHead.map((t) => h('th', {scope: 'col'}, t)))), body)));
    }
    caption(wrap, list(e.run.notes).map((n) => String(n)), e.run.error ? 'Stopped early: ' + e.run.error : '');
  }

  // The workload's own score, from the run's figures (and, for video, its own verdict).
  function appScore(e) {
    const a = e.app;
    const op = (name) => record(list(a.ops).map(record).find((o) => o.op === name));
    switch (a.workload) {
      case 'video': return videoScore(e);
      case 'dir-copy':
        return isNum(a.small_file_penalty) ? 'small-file penalty ' + fmtNumber(a.small_file_penalty, 2) + '×' : 'small-file penalty not measured';
      case 'office': return isNum(a.ops_per_s) ? fmtNumber(a.ops_per_s, 1) + ' ops/s' : 'ops/s not recorded';
      case 'photo-album': {
        const w = op('read-photo');
        return isNum(w.p50_us) ? 'per-photo wait p50 ' + fmtUs(w.p50_us) + ', p99 ' + fmtUs(w.p99_us) : 'per-photo wait not recorded';
      }
      case 'backup':
      case 'restore':
        return isNum(a.source_mb_per_s) ? 'source ' + fmtMBps(a.source_mb_per_s) + ' MB/s' : 'source MB/s not recorded';
      default: return '—';
    }
  }

  // Streams, misses and stall summed over the run's streams; pass or fail in the run's own
  // words (its note "... (kept up)"), else no misses in a whole run.
  function videoScore(e) {
    const a = e.app;
    const streams = list(a.streams).map(record);
    const misses = streams.reduce((n, st) => n + (isNum(st.deadline_misses) ? st.deadline_misses : 0), 0);
    const stall = streams.reduce((n, st) => n + (isNum(st.stall_s) ? st.stall_s : 0), 0);
    const said = list(e.run.notes).map(String).map((n) => /deadline misses.*\((kept up|did not keep up)\)\s*$/.exec(n)).find(Boolean);
    const pass = said ? said[1] === 'kept up' : e.run.partial !== true && misses === 0;
    const verdict = said ? (pass ? 'PASS' : 'FAIL') + ' (' + said[1] + ')' : (pass ? 'PASS' : 'FAIL') + ' (no note: from the misses)';
    let text = streams.length + ' stream' + (streams.length === 1 ? '' : 's') + ', ' + fmtNumber(misses, 0) + ' deadline miss' +
      (misses === 1 ? '' : 'es') + ', ' + fmtNumber(stall, 3) + ' s stalled: ' + verdict;
    if (isNum(a.max_streams)) text += '; find-max: ' + a.max_streams + ' stream' + (a.max_streams === 1 ? '' : 's') + ' sustained';
    return text;
  }

  // ---------------------------------------------------------------- 3. latency
  function renderLatency(root, model) {
    const s = section(root, 'latency', 'Latency percentiles per run');
    const rows = model.measures.map((m) => {
      const lat = record(m.figures.lat_us);
      return {m, values: PERCENTILES.map(([k]) => (isNum(lat[k]) && lat[k] > 0 ? lat[k] : null))};
    }).filter((r) => r.values.some((v) => v !== null));
    if (!rows.length) {
      skipNote(s, 'No selected run has latency percentiles.');
      return;
    }
    const title = 'Completion latency percentiles';
    const note = addRunChart(s, 'chart-latency', title, rows, latencyOption);
    const paced = rows.filter((r) => r.m.run.pacing && typeof r.m.run.pacing === 'object').map((r) => r.m.name);
    caption(s, 'Latency from submission to completion of each I/O, per run and direction; p99.9 is p999 in the JSON.',
      paced.length ? 'Paced runs are timed from each I/O\'s intended start on the schedule, not from its submit (their ' +
        'service time is in the pacing table): ' + paced.join('; ') + '.' : '', note);
  }

  // A chart of a line per run and direction. With more lines than MAX_SHOWN_SERIES it
  // draws the runs of the items ticked above it, at first the leading items up to that
  // many lines: hundreds of lines are slow to draw and cannot be read. Returns a note
  // for the caption.
  function addRunChart(s, id, title, rows, optionFor) {
    const items = new Map(); // item key -> {item, count}
    for (const r of rows) {
      if (!items.has(r.m.item.key)) items.set(r.m.item.key, {item: r.m.item, count: 0});
      items.get(r.m.item.key).count += 1;
    }
    const chosen = new Set();
    let lines = 0;
    for (const {item, count} of items.values()) {
      if (chosen.size && lines + count > MAX_SHOWN_SERIES) break;
      chosen.add(item.key);
      lines += count;
    }
    const drawn = () => rows.filter((r) => chosen.has(r.m.item.key));
    let spec = null;
    let picker = null;
    if (chosen.size < items.size) {
      picker = h('fieldset', {class: 'picker'}, h('legend', {}, 'Draw the runs of'));
      for (const {item, count} of items.values()) {
        const box = h('input', {type: 'checkbox', checked: chosen.has(item.key)});
        box.addEventListener('change', () => {
          if (box.checked) chosen.add(item.key);
          else chosen.delete(item.key);
          spec.series = drawn().map((r) => r.m.name);
          redraw(spec, printing ? PRINT_WIDTH_PX : null);
        });
        picker.append(h('label', {}, box, ' ' + item.label + ' (' + count + ')'));
      }
    }
    spec = addChart(s, id, title, drawn().map((r) => r.m.name), (widthPx, selected) => {
      const d = drawn();
      return optionFor(title, d.map((r) => r.m.name), d, widthPx, selected);
    });
    // Hundreds of check boxes cost layout time; they do not change the chart's width.
    if (chosen.size < items.size) afterCharts.push(() => spec.box.before(picker));
    return chosen.size < items.size
      ? 'At first the runs of ' + chosen.size + ' of ' + items.size + ' items are drawn (' + lines + ' of ' + rows.length +
        ' lines); tick items above the chart to draw theirs.'
      : '';
  }

  function latencyOption(title, names, rows, widthPx, selected) {
    const option = baseOption(title, 'log scale; colour: test and direction, line style: item');
    const legend = legendLayout(names, widthPx, selected);
    option.legend = legend.legend;
    option.grid = {left: 72, right: 36 + legend.right, top: legend.top, bottom: 52 + legend.bottom};
    option.xAxis = {type: 'category', data: PERCENTILES.map(([, label]) => label), boundaryGap: false,
      name: 'Percentile', nameLocation: 'middle', nameGap: 30, nameTextStyle: {color: INK},
      axisLabel: {color: INK}, axisLine: {lineStyle: {color: '#8c959f'}}};
    option.yAxis = valueAxis('Latency (µs, log scale)', {type: 'log', logBase: 10, nameGap: 56,
      axisLabel: {color: MUTED, fontSize: 11, formatter: fmtAxisNumber}});
    option.tooltip.trigger = 'axis';
    option.tooltip.formatter = (params) => {
      const ps = list(params);
      if (!ps.length) return '';
      let out = '<div class="tt-head">' + escapeHtml(ps[0].name) + ' latency</div>';
      for (const p of ps) if (isNum(p.value)) out += tooltipRow(p.marker, p.seriesName, fmtUs(p.value));
      return out;
    };
    option.series = rows.map((r) => measureSeries(r.m, r.values, rows.length, {connectNulls: true}));
    return {option, heightPx: Math.max(480 + legend.bottom, legend.minHeight)};
  }

  // ---------------------------------------------------------------- 4. over time
  function renderTimeline(root, model) {
    const s = section(root, 'timeline', 'Throughput over time per run');
    const rows = [];
    for (const m of model.measures) {
      const key = m.dir + '_mb_per_s';
      const data = [];
      for (const sample of list(m.run.samples)) {
        const smp = record(sample);
        if (isNum(smp.t_s) && isNum(smp[key])) data.push([smp.t_s, smp[key]]);
      }
      if (data.length) rows.push({m, data});
    }
    if (!rows.length) {
      skipNote(s, 'No selected run has per-second samples.');
      return;
    }
    const title = 'Per-second throughput';
    const note = addRunChart(s, 'chart-timeline', title, rows, timelineOption);
    const partial = rows.filter((r) => r.m.run.partial === true).map((r) => r.m.name);
    const apps = rows.filter((r) => record(r.m.run.app).workload).map((r) => r.m.name);
    caption(s, partial.length ? 'Partial runs (stopped before the end): ' + partial.join('; ') + '.' : '',
      apps.length ? 'Application runs, named by workload, each second\'s payload MB/s: ' + apps.join('; ') + '. A file-copy ' +
        'that outlasts the destination\'s write cache drops where the cache filled (the write-cache cliff).' : '', note);
  }

  function timelineOption(title, names, rows, widthPx, selected) {
    const option = baseOption(title, 'colour: test and direction, line style: item');
    const legend = legendLayout(names, widthPx, selected);
    option.legend = legend.legend;
    option.grid = {left: 64, right: 36 + legend.right, top: legend.top, bottom: 52 + legend.bottom};
    option.xAxis = valueAxis('Time since the run started (s)', {min: 0, nameGap: 30});
    option.yAxis = valueAxis('Throughput (MB/s)', {min: 0});
    option.tooltip.trigger = 'axis';
    option.tooltip.formatter = (params) => {
      const ps = list(params).filter((p) => Array.isArray(p.value));
      if (!ps.length) return '';
      let out = '<div class="tt-head">t = ' + escapeHtml(fmtNumber(ps[0].value[0], Number.isInteger(ps[0].value[0]) ? 0 : 1)) + ' s</div>';
      for (const p of ps) out += tooltipRow(p.marker, p.seriesName, fmtMBps(p.value[1]) + ' MB/s');
      return out;
    };
    option.series = rows.map((r) => measureSeries(r.m, r.data, rows.length, {
      showSymbol: r.data.length <= 2, symbolSize: 5, sampling: r.data.length > 600 ? 'lttb' : undefined,
      lineStyle: {color: PALETTE[r.m.categorySlot % PALETTE.length], width: 1.6, type: DASHES[r.m.itemSlot % DASHES.length]},
    }));
    return {option, heightPx: Math.max(460 + legend.bottom, legend.minHeight)};
  }

  // ---------------------------------------------------------------- 5. facts table
  function renderFacts(root, model) {
    const s = section(root, 'facts', 'What was measured: job and inventory');
    const items = model.items;
    const keys = [];
    const seen = new Set();
    for (const it of items) {
      for (const k of Object.keys(record(it.raw.facts))) {
        if (!seen.has(k)) {
          seen.add(k);
          keys.push(k);
        }
      }
    }
    if (!keys.length) {
      skipNote(s, 'The selected items carry no job or inventory facts.');
      return;
    }
    // Tags first: they are what the user set apart between the items.
    const isTag = (k) => k.startsWith('tags.');
    keys.sort((a, b) => Number(isTag(b)) - Number(isTag(a))); // stable: data order otherwise
    const filter = h('input', {type: 'checkbox'});
    s.append(h('div', {class: 'toolbar'}, h('label', {}, filter, ' show only the rows that differ')));
    s.append(h('p', {class: 'intro'}, 'Cells marked ≠ differ from the first column (' + items[0].label + '); numbers within ' +
      FACT_TOLERANCE * 100 + ' % of it and figures that change between any two runs (page cache, free and available bytes) ' +
      'are not marked. “varies” means the field differs between the runs of one item.'));
    const head = h('tr', {}, h('th', {scope: 'col', class: 'key'}, 'Fact'),
      items.map((it) => h('th', {scope: 'col'}, it.label, h('span', {class: 'sub'}, it.kind + ' · ' + it.key))));
    const body = h('tbody');
    for (const k of keys) {
      const values = items.map((it) => record(it.raw.facts)[k]);
      const cells = values.map((v) => factText(k, v));
      const row = h('tr', {}, h('th', {scope: 'row', class: 'key', title: k}, h('span', {class: 'name'}, k)));
      let differs = false;
      cells.forEach((c, i) => {
        const diff = i > 0 && factsDiffer(k, values[0], values[i], cells[0].text, c.text);
        differs = differs || diff;
        const long = c.text.length > LONG_FACT_CHARS;
        const td = h('td', {class: [diff ? 'differs' : '', c.cls, long ? 'long' : ''].filter(Boolean).join(' ') || null, title: c.title},
          diff ? h('span', {class: 'diff-mark', title: 'differs from the first column'}, '≠ ') : null,
          long ? breakable(c.text) : c.text);
        row.append(td);
      });
      if (differs) row.classList.add('has-diff');
      body.append(row);
    }
    const table = h('table', {class: 'facts'}, h('thead', {}, head), body);
    const holder = h('div', {class: 'table-scroll'});
    s.append(holder);
    filter.addEventListener('change', () => table.classList.toggle('only-diff', filter.checked));
    // A table of hundreds of columns costs a long layout: it goes in after the charts
    // have read their widths (see main).
    afterCharts.push(() => holder.append(table));
  }

  // A long value (mount options) with line-break opportunities after its commas.
  function breakable(text) {
    return text.split(/(?<=,)/).flatMap((part, i) => (i ? [h('wbr'), part] : [part]));
  }

  // Whether a fact differs enough to mark: tags whenever their text differs; numbers by
  // more than FACT_TOLERANCE of the larger; drifting figures never.
  function factsDiffer(key, a, b, textA, textB) {
    if (textA === textB) return false;
    if (key.startsWith('tags.')) return true;
    if (DRIFTING_FACT.test(key)) return false;
    const x = typeof a === 'string' && a.trim() !== '' ? Number(a) : a;
    const y = typeof b === 'string' && b.trim() !== '' ? Number(b) : b;
    if (isNum(x) && isNum(y)) {
      const larger = Math.max(Math.abs(x), Math.abs(y));
      return larger > 0 && Math.abs(x - y) / larger > FACT_TOLERANCE;
    }
    return true;
  }

  function factText(key, v) {
    if (v === undefined) return {text: '—', cls: 'missing', title: 'not recorded'};
    if (v === null) return {text: 'n/a', cls: 'missing'};
    if (v === 'varies') return {text: 'varies', cls: 'varies'};
    if (isNum(v) && /(_bytes|^job\.bs|^job\.size)$/.test(key)) return {text: fmtBytes(v), title: fmtNumber(v, 0) + ' bytes'};
    if (typeof v === 'object') return {text: JSON.stringify(v)};
    return {text: String(v)};
  }

  // ---------------------------------------------------------------- page life
  let printing = false;
  // Printing lays every chart out for the page's width, drawn at twice the resolution
  // at least; the screen for its box's width.
  function fitCharts(forPrint) {
    printing = forPrint;
    const screenRatio = window.devicePixelRatio || 1;
    const ratio = forPrint ? Math.max(2, screenRatio) : screenRatio;
    for (const c of charts) {
      if (!c.chart) continue;
      const width = forPrint ? PRINT_WIDTH_PX : c.box.clientWidth;
      if (width && (width !== c.chart.getWidth() || ratio !== (c.pixelRatio || screenRatio))) redraw(c, width, ratio);
    }
  }

  function watchSize() {
    let timer = 0;
    window.addEventListener('resize', () => {
      if (printing) return;
      clearTimeout(timer);
      timer = setTimeout(() => fitCharts(false), 120);
    });
    window.addEventListener('beforeprint', () => fitCharts(true));
    window.addEventListener('afterprint', () => fitCharts(false));
  }

  function renderSection(root, render, model) {
    try {
      render(root, model);
    } catch (err) {
      console.error('nasperf report:', err);
      root.append(h('p', {class: 'notice'}, 'A part of this report could not be drawn: ' + (err && err.message ? err.message : String(err))));
    }
  }

  function main() {
    const root = document.getElementById('nasperf-report') || document.body;
    let model;
    try {
      model = buildModel(readData());
    } catch (err) {
      root.append(h('p', {class: 'notice'}, 'The report data could not be read: ' + (err && err.message ? err.message : String(err))));
      window.nasperfReport = {renderedMs: performance.now(), charts: [], error: String(err && err.message ? err.message : err)};
      return;
    }
    document.title = str(model.data.title, 'nasperf report');
    if (typeof echarts === 'undefined') {
      root.append(h('p', {class: 'notice'}, 'The charting library is missing from this page; only the table is shown.'));
    }
    renderHeader(root, model);
    const nav = [['sweeps', 'Sweeps'], ['bars', 'Throughput'], ['latency', 'Latency'], ['timeline', 'Over time'], ['facts', 'Facts']];
    if (model.items.some((it) => it.kind === 'diagnosis')) nav.unshift(['diagnoses', 'Diagnosis']);
    // Sections drawn only when a selected run has their data, after the bars.
    const extra = [[clusterRuns(model).length, 'ranks', 'Per rank'],
      [model.barItems.some((it) => it.runs.some((r) => list(r.per_size).length)), 'sizes', 'Per size'],
      [model.barItems.some((it) => it.runs.some((r) => r.pacing && typeof r.pacing === 'object')), 'pacing', 'Pacing'],
      [appRuns(model).length, 'apps', 'Applications']];
    nav.splice(nav.findIndex(([id]) => id === 'bars') + 1, 0, ...extra.filter(([has]) => has).map(([, id, label]) => [id, label]));
    renderNav(root, nav);
    const sections = typeof echarts === 'undefined'
      ? [renderFacts]
      : [renderDiagnoses, renderSweeps, renderBars, renderRanks, renderPerSize, renderPacing, renderApps, renderLatency, renderTimeline,
        renderFacts];
    for (const render of sections) renderSection(root, render, model);
    drawCharts();
    for (const insert of afterCharts) insert();
    watchSize();
    window.nasperfReport = {
      renderedMs: performance.now(),
      charts: charts.map((c) => ({id: c.id, title: c.title, series: c.series.slice()})),
    };
  }

  // The data element follows this script in the page.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', main);
  else main();
})();
