/**
 * The HTML report's one stylesheet, inlined in its <style> (the report is a single file with no outside requests):
 * light and dark, print, and a card layout for tables on phone screens.
 */
export const HTML_STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--panel:#f6f8fa;
--pass:#1a7f37;--fail:#cf222e;--skip:#8c959f;--error:#9a6700;--ttfb:#0550ae;--total:#80ccff;--first:#8250df;--gap:#bc4c00}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--panel:#151b23;
--pass:#3fb950;--fail:#f85149;--skip:#6e7681;--error:#d29922;--ttfb:#4493f8;--total:#1f4f7a;--first:#ab7df8;--gap:#f0883e}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
header,main,footer{max-width:1100px;margin:0 auto;padding:16px 24px}
header{padding-bottom:0}header h1{font-size:1rem;font-weight:600;color:var(--muted);margin:0}header .agent{font-size:1.5rem;font-weight:700;margin:0}
h2{font-size:1.25rem;margin-top:2em;border-bottom:1px solid var(--line)}h3{font-size:1.05rem}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 16px;margin:0}dt{color:var(--muted)}dd{margin:0}
td dl.facts{display:block}td dl.facts dd{margin:0 0 6px}
.msg,td,dd,summary{overflow-wrap:break-word;white-space:pre-wrap}.url{overflow-wrap:anywhere}code{overflow-wrap:break-word}th,.level-badge{overflow-wrap:break-word}
a{color:var(--ttfb)}
.first{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:16px 24px;align-items:start;margin-top:8px}
@media (max-width:760px){.first{grid-template-columns:minmax(0,1fr)}}
.verdict{border:1px solid var(--line);border-top:8px solid var(--muted);background:var(--panel);padding:12px 16px;border-radius:8px}
.verdict p{margin:.3em 0}
.level-line{display:flex;flex-wrap:wrap;align-items:center;gap:4px 12px}
.level-caption{color:var(--muted);flex-basis:100%;font-size:.9rem}
.level-badge{display:inline-block;font-size:2.6rem;line-height:1.1;font-weight:800;letter-spacing:.02em;text-transform:uppercase;border:3px solid currentColor;border-radius:10px;padding:4px 14px}
.verdict-line{font-size:1.15rem;font-weight:600}
.level-full{border-top-color:var(--pass)}.level-full .level-badge{color:var(--pass)}
.level-partial{border-top-color:var(--error)}.level-partial .level-badge{color:var(--error)}
.level-minimal{border-top-color:var(--gap)}.level-minimal .level-badge{color:var(--gap)}
.level-non-conformant{border-top-color:var(--fail)}.level-non-conformant .level-badge{color:var(--fail)}
.level-not-assessed .level-badge{color:var(--muted);border-style:dashed}
.badge{display:inline-block;padding:0 8px;border-radius:10px;border:1px solid currentColor;font-size:.8rem}
ul.strip{list-style:none;margin:16px 0 0;padding:0;display:grid;grid-template-columns:repeat(auto-fit,minmax(170px,1fr));gap:8px}
.tile{border:1px solid var(--line);border-radius:8px;padding:8px 10px}
.tile .cat{display:block;font-weight:600}
.tile svg{display:block;width:100%;height:8px;margin:6px 0;background:var(--line);border-radius:4px}
.tile .counts{font-size:.9rem}.tile .counts span{white-space:nowrap}
blockquote.req{margin:4px 0;padding:2px 10px;border-left:3px solid var(--line);color:var(--muted)}
blockquote.req .src{display:block;font-size:.85rem}blockquote.req code{white-space:pre-wrap}
table{border-collapse:collapse;width:100%;margin:8px 0 16px}
th,td{border:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
th{background:var(--panel)}td.num,th.num{text-align:right}table.results th:first-child{width:24%}
table.failed th:nth-child(1){width:19%}table.failed th:nth-child(2){width:10%}table.failed th:nth-child(3),table.failed th:nth-child(4){width:28%}
.st{font-weight:600;white-space:nowrap}td.nw{white-space:nowrap;overflow-wrap:normal}
.st-pass{color:var(--pass)}.st-fail{color:var(--fail)}.st-advisory{color:var(--ttfb)}.st-skip{color:var(--muted)}.st-error{color:var(--error)}
details{margin-top:4px}summary{cursor:pointer;color:var(--muted)}
figure{margin:16px 0}figcaption{color:var(--muted);font-size:.9rem}
svg.chart{max-width:100%;height:auto;display:block}
svg .label,svg .value{fill:var(--fg);font:12px system-ui,sans-serif}
svg .axis{stroke:var(--line)}
svg .pass{fill:var(--pass)}svg .fail{fill:var(--fail)}svg .advisory{fill:var(--ttfb)}svg .skip{fill:var(--skip)}svg .error{fill:var(--error)}
svg .ttfb{fill:var(--ttfb)}svg .total{fill:var(--total)}svg .first{fill:var(--first)}svg .gap{fill:var(--gap)}
footer{color:var(--muted);font-size:.85rem}
.muted{color:var(--muted)}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
@media (max-width:600px){header,main,footer{padding:12px}.level-badge{font-size:1.6rem;letter-spacing:0}table{font-size:.85rem}th,td{padding:4px}}
@media screen and (max-width:600px){table.failed,table.results,table.failed tbody,table.results tbody,table.failed tr,table.results tr,table.failed td,table.results td{display:block;width:auto}
table.failed thead,table.results thead,table.summary thead{display:block;position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
table.summary,table.summary tbody,table.summary tr{display:block}table.summary td{display:inline-block;border:0;margin-right:12px}
table.failed tr,table.results tr{border:1px solid var(--line);border-radius:8px;margin:8px 0;padding:6px 10px}
table.failed td,table.results td{border:0;padding:2px 0}table.results th:first-child{width:auto}
td[data-label]::before{content:attr(data-label) ": ";font-weight:600;color:var(--muted)}
td.st,td.nw{display:inline-block;margin-right:12px}}
@page{margin:14mm}
@media print{
:root{color-scheme:light;--bg:#fff;--fg:#000;--muted:#444;--line:#999;--panel:#fff;
--pass:#116329;--fail:#a40e26;--skip:#6e7781;--error:#7d4e00;--ttfb:#0a3069;--total:#8fb8e0;--first:#6639ba;--gap:#953800}
body{font-size:10.5pt;background:#fff;color:#000}
header,main,footer{max-width:none;padding:0 1px}
.first{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}
section.pb{break-before:page}
h2,h3{break-after:avoid}
table{width:100%}thead{display:table-header-group}
tr,blockquote,figure,.tile,.verdict,dl.facts div{break-inside:avoid}
svg.chart{max-width:100%}
a{color:inherit;text-decoration:underline}
a[href]:not(.self)::after{content:" <" attr(href) ">";overflow-wrap:anywhere}
details::details-content{content-visibility:visible;display:block}
}
`;
