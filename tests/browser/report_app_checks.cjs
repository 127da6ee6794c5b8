// The application-workload page of the browser test (report_browser_test.cjs): stores
// real `nasperf app` runs of every workload, writes <out>/apps.html of them and checks the
// "Application workloads" section against what `results show --json` says was stored.
'use strict';

const fs = require('fs');
const path = require('path');

// Runs that differ in cache state: a copy to a directory (its destination dropped) and a
// copy from the null source to the null sink (nothing dropped); a generated backup is
// always "unknown".
const APP_COMMANDS = [
  ['file-copy', '--to', '@dst', '--size', '32m', '--name', 'copy to disk'],
  ['file-copy', '--from', 'null:', '--to', 'null:', '--size', '32m', '--name', 'copy in memory'],
  ['dir-copy', '--to', '@tree', '--scale', '0.02'], // stores its file-copy of the same bytes first
  ['video', '@t', '--streams', '2', '--time', '1'],
  ['office', '@t', '--users', '2', '--time', '1s', '--think', '50'],
  ['photo-album', '@t', '--photos', '4'],
  ['backup', '@t', '--scale', '0.02'],
];
const APP_RUNS = 8;

// Stores the runs in a fresh database and writes <out>/apps.html; returns the page and the
// stored runs (ids 1..APP_RUNS, as `results show ID --json` prints them).
function makeAppReport(runNasperf, bin, tmp, out) {
  const db = path.join(tmp, 'apps.db');
  const dirs = {};
  for (const name of ['dst', 'tree', 't']) {
    dirs[name] = path.join(tmp, 'app-' + name);
    fs.mkdirSync(dirs[name]);
  }
  for (const cmd of APP_COMMANDS) {
    const args = cmd.map((a) => (a.startsWith('@') ? dirs[a.slice(1)] : a));
    runNasperf(bin, ['app', ...args, '--db', db], tmp);
  }
  const stored = [];
  for (let id = 1; id <= APP_RUNS; id++)
    stored.push(JSON.parse(runNasperf(bin, ['results', 'show', String(id), '--json', '--db', db], tmp)).runs[0]);
  const html = path.join(out, 'apps.html');
  runNasperf(bin, ['report', '--last', String(APP_RUNS), '-o', html, '--db', db], tmp);
  return {html, stored};
}

// The section as the page holds it: the bar chart's option, the tables' cells, the caption.
function inspectApps() {
  const section = document.getElementById('apps');
  const out = {section: !!section, charts: window.nasperfReport.charts.map((c) => ({id: c.id, series: c.series})),
    notices: [...document.querySelectorAll('.notice')].map((n) => n.textContent), nav: [...document.querySelectorAll('.toc a')]
      .map((a) => a.getAttribute('href'))};
  if (!section) return out;
  const cells = (t) => (t ? [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent)) : []);
  out.runs = [...section.querySelectorAll('.app-run')].map((w) => ({id: w.getAttribute('data-run'),
    heading: (w.querySelector('h3') || {}).textContent, figures: cells(w.querySelector('table.app-figures')),
    head: [...w.querySelectorAll('table.app-figures thead th')].map((th) => th.textContent),
    ops: cells(w.querySelector('table.app-ops')), streams: cells(w.querySelector('table.app-streams'))}));
  const box = document.getElementById('chart-apps');
  const chart = box && echarts.getInstanceByDom(box);
  if (!chart) return Object.assign(out, {missing: 'chart-apps was not drawn'});
  const option = chart.getOption();
  out.categories = option.yAxis[0].data;
  out.series = option.series.map((s) => ({name: s.name, colour: s.itemStyle && s.itemStyle.color,
    values: (s.data || []).map((d) => (d && typeof d === 'object' ? d.value : d)),
    labels: (s.data || []).map((d, i) => (d == null ? '' : s.label.formatter({value: d, dataIndex: i})))}));
  let colourPixels = 0;
  for (const canvas of box.querySelectorAll('canvas')) {
    const px = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    for (let i = 0; i < px.length; i += 4)
      if (px[i + 3] > 64 && Math.max(px[i], px[i + 1], px[i + 2]) - Math.min(px[i], px[i + 1], px[i + 2]) > 48) colourPixels += 1;
  }
  out.colourPixels = colourPixels;
  const caption = box.closest('.chart-wrap').querySelector('.caption');
  out.caption = caption ? caption.textContent : '';
  const timeline = window.nasperfReport.charts.find((c) => c.id === 'chart-timeline');
  out.timeline = timeline ? timeline.series : null;
  const own = window.nasperfReport.charts.find((c) => c.id === 'chart-apps-timeline');
  out.appTimeline = own ? own.series : null;
  const tcap = document.querySelector('#timeline .caption');
  out.timelineCaption = tcap ? tcap.textContent : '';
  return out;
}

// A figure as the page printed it ("1,234.5") against the stored number: equal to the
// digits shown.
function sameFigure(text, value) {
  const shown = Number(String(text).replace(/,/g, ''));
  const digits = (String(text).split('.')[1] || '').length;
  return Number.isFinite(shown) && Math.abs(shown - value) <= 0.5 * 10 ** -digits + 1e-9;
}

function checkApps(a, stored, minColourPixels, fail) {
  for (const n of a.notices) fail('the application page shows a notice: ' + n);
  if (!a.section) return fail('the page has no #apps section');
  if (!a.nav.includes('#apps')) fail('the section list lacks "#apps": ' + JSON.stringify(a.nav));
  if (a.missing) return fail(a.missing);
  if (stored.some((r) => !r.app)) fail('a stored run of `nasperf app` has no app member');
  const apps = stored.filter((r) => r.app);
  // One bar per run: exactly one series carries a value on each row, the run's stored MB/s.
  if (a.categories.length !== apps.length) fail('chart-apps has ' + a.categories.length + ' rows, want one per app run (' + apps.length + ')');
  const bars = [];
  a.categories.forEach((cat, i) => {
    const on = a.series.filter((s) => s.values[i] != null);
    if (on.length !== 1) fail('row "' + cat + '" has ' + on.length + ' bars, want 1');
    else bars.push({cat, series: on[0].name, value: on[0].values[i], label: on[0].labels[i]});
  });
  for (const r of apps) {
    const bar = bars.find((b) => b.cat.endsWith('(#' + r.id + ')') || b.cat.includes('#' + r.id + ' '));
    if (!bar) {
      fail('no bar of run #' + r.id + ' (' + r.app.workload + ') among ' + JSON.stringify(a.categories));
      continue;
    }
    if (bar.value !== r.app.mb_per_s) fail('run #' + r.id + '\'s bar is ' + bar.value + ' MB/s, stored ' + r.app.mb_per_s);
    if (!bar.cat.startsWith(r.app.workload + ' · ' + r.app.cache_state + ' · '))
      fail('run #' + r.id + '\'s row "' + bar.cat + '" is not in the group "' + r.app.workload + ' · ' + r.app.cache_state + '"');
    if (bar.series !== 'cache ' + r.app.cache_state) fail('run #' + r.id + '\'s bar is in series "' + bar.series + '", want "cache ' + r.app.cache_state + '"');
    if (!bar.label.includes(' · ' + r.app.cache_state)) fail('run #' + r.id + '\'s bar label lacks its cache state: ' + bar.label);
  }
  // The cache-state distinction: the states stored are distinct series of distinct colours.
  const states = [...new Set(apps.map((r) => r.app.cache_state))];
  if (states.length < 2) fail('the fixture runs have one cache state only (' + states + '): nothing to distinguish');
  const colours = new Set(a.series.map((s) => String(s.colour)));
  if (a.series.length !== states.length || colours.size !== states.length)
    fail('chart-apps has series ' + JSON.stringify(a.series.map((s) => [s.name, s.colour])) + ', want one colour per state ' + states);
  const copies = [...new Set(apps.filter((r) => r.app.workload === 'file-copy').map((r) => r.app.cache_state))];
  if (copies.length > 1 && !a.caption.includes('file-copy (' + copies.join(', ') + ')'))
    fail('the caption does not name file-copy\'s runs of states ' + copies + ': ' + JSON.stringify(a.caption));
  if (!a.caption.includes('never set in one group')) fail('the caption does not say states are never grouped: ' + a.caption);
  if (a.colourPixels <= minColourPixels) fail('chart-apps looks empty: ' + a.colourPixels + ' pixels in colour');
  checkAppTables(a, apps, fail);
  // Both timelines (the section's own and the page's) name an app run by its workload.
  const timed = apps.filter((r) => (r.samples || []).length && r.write);
  for (const r of timed)
    for (const [id, series] of [['chart-timeline', a.timeline], ['chart-apps-timeline', a.appTimeline]])
      if (!series || !series.some((s) => s.includes(r.app.workload + ' write')))
        fail(id + ' has no "' + r.app.workload + ' write" line for run #' + r.id + ': ' + JSON.stringify(series));
  if (a.appTimeline && a.appTimeline.length !== timed.length)
    fail('chart-apps-timeline has ' + a.appTimeline.length + ' lines, want one per app run with samples (' + timed.length + ')');
  if (timed.length && !a.timelineCaption.includes('Application runs')) fail('the timeline caption does not name the application runs');
}

function checkAppTables(a, apps, fail) {
  const want = ['Workload', 'From → to', 'Elapsed s', 'MB/s', 'Files/s', 'Cache', 'Fill', 'Score'];
  for (const r of apps) {
    const t = a.runs.find((x) => x.id === String(r.id));
    if (!t) {
      fail('no table of run #' + r.id);
      continue;
    }
    if (JSON.stringify(t.head) !== JSON.stringify(want)) fail('run #' + r.id + '\'s table head is ' + JSON.stringify(t.head));
    const row = t.figures[0] || [];
    const c = (name) => row[want.indexOf(name)];
    if (c('Workload') !== r.app.workload) fail('run #' + r.id + ' workload cell "' + c('Workload') + '", stored ' + r.app.workload);
    if (c('From → to') !== (r.app.from || '—') + ' → ' + (r.app.to || '—')) fail('run #' + r.id + ' from → to cell "' + c('From → to') + '"');
    if (!sameFigure(c('MB/s'), r.app.mb_per_s)) fail('run #' + r.id + ' MB/s cell "' + c('MB/s') + '", stored ' + r.app.mb_per_s);
    if (!sameFigure(c('Elapsed s'), r.app.elapsed_s)) fail('run #' + r.id + ' elapsed cell "' + c('Elapsed s') + '", stored ' + r.app.elapsed_s);
    // A workload without a files/s figure (video) shows a dash: the figure does not apply.
    if (r.app.files_per_s == null ? c('Files/s') !== '—' : !sameFigure(c('Files/s'), r.app.files_per_s)) fail('run #' + r.id + ' files/s cell "' + c('Files/s') + '", stored ' + r.app.files_per_s);
    if (c('Cache') !== r.app.cache_state) fail('run #' + r.id + ' cache cell "' + c('Cache') + '", stored ' + r.app.cache_state);
    if (c('Fill') !== (r.app.fill_pct == null ? '—' : r.app.fill_pct.toFixed(1) + ' %')) fail('run #' + r.id + ' fill cell "' + c('Fill') + '"');
    const score = c('Score') || '';
    const scoreWant = {
      'dir-copy': r.app.small_file_penalty != null ? 'small-file penalty ' + r.app.small_file_penalty.toFixed(2) + '×' : '',
      office: r.app.ops_per_s != null ? r.app.ops_per_s.toFixed(1) + ' ops/s' : '',
      backup: 'source ', 'photo-album': 'per-photo wait p50 ',
      video: (r.app.streams || []).length + ' streams, ' +
        r.app.streams.reduce((n, s) => n + s.deadline_misses, 0) + ' deadline miss',
    }[r.app.workload];
    if (scoreWant != null && (!scoreWant || !score.includes(scoreWant)))
      fail('run #' + r.id + ' (' + r.app.workload + ') score "' + score + '" lacks "' + scoreWant + '"');
    if (r.app.workload === 'video') {
      const kept = (r.notes || []).some((n) => /\(kept up\)$/.test(n));
      if (!score.includes(kept ? 'PASS (kept up)' : 'FAIL (did not keep up)')) fail('video run #' + r.id + ' verdict is not the run\'s: ' + score);
      if (t.streams.length !== r.app.streams.length) fail('video run #' + r.id + ' has ' + t.streams.length + ' stream rows');
    }
    const ops = t.ops.map((o) => o[0]);
    if (JSON.stringify(ops) !== JSON.stringify((r.app.ops || []).map((o) => o.op)))
      fail('run #' + r.id + ' operations ' + JSON.stringify(ops) + ', stored ' + JSON.stringify((r.app.ops || []).map((o) => o.op)));
    (r.app.ops || []).forEach((o, i) => {
      const cells = t.ops[i] || [];
      if (cells[1] !== o.count.toLocaleString('en-US')) fail('run #' + r.id + ' ' + o.op + ' count "' + cells[1] + '", stored ' + o.count);
      if (!sameFigure(cells[4], o.p99_us)) fail('run #' + r.id + ' ' + o.op + ' p99 "' + cells[4] + '", stored ' + o.p99_us);
    });
  }
}

module.exports = {makeAppReport, inspectApps, checkApps};
