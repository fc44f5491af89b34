/// The report's page, a Mustache template read by ``ReportPage``: `{{…}}` is escaped text,
/// `{{{svg}}}` a chart `SVGChart` drew.
enum ReportTemplate {
    static let page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}}</title>
        <style>
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d1d1f; margin: 0 auto; padding: 16px 24px 48px; max-width: 780px; }
        h1 { font-size: 22px; margin: 8px 0 2px; }
        h2 { font-size: 18px; margin: 36px 0 4px; padding-top: 12px; border-top: 1px solid #ddd; }
        h3 { font-size: 15px; margin: 22px 0 6px; }
        .path, code, td.mono { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; }
        .meta { color: #555; margin: 0 0 10px; }
        .verdict { border-radius: 6px; padding: 10px 14px; margin: 14px 0; border: 1px solid; }
        .verdict.clean { background: #eef8f0; border-color: #5aa86a; }
        .verdict.tornTail { background: #fff6e5; border-color: #d08a00; }
        .verdict.corrupt { background: #fdecec; border-color: #c62828; color: #8e0000; }
        .verdict .headline { font-weight: 600; margin: 0; }
        .verdict ul { margin: 6px 0 0; padding-left: 18px; }
        .problem.error { color: #c62828; }
        .problem.warning { color: #7a5b00; }
        figure { margin: 16px 0; }
        figure svg { max-width: 100%; height: auto; display: block; }
        figcaption { color: #444; font-size: 13px; margin-top: 2px; }
        .legend { margin: 2px 0 0; padding: 0; list-style: none; font-size: 12.5px; }
        .legend li { display: inline-block; margin-right: 14px; }
        .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: -1px; }
        table { border-collapse: collapse; margin: 6px 0; font-size: 13px; }
        th, td { text-align: left; padding: 3px 10px 3px 0; border-bottom: 1px solid #eee; vertical-align: top; }
        td.number, th.number { text-align: right; }
        tr.damaged-row td { color: #c62828; }
        nav a { margin-right: 12px; }
        svg text { font: 11px system-ui, sans-serif; fill: #333; }
        svg text.title { font-size: 12px; fill: #222; }
        svg .axis { stroke: #333; stroke-width: 1; }
        svg .grid { stroke: #e4e4e4; stroke-width: 1; }
        svg .tick { stroke: #333; }
        .c-save { fill: #3b73c4; background: #3b73c4; }
        .c-delete { fill: #d9534f; background: #d9534f; }
        .c-zone { fill: #3a9d5d; background: #3a9d5d; }
        .c-other { fill: #9b7bc4; background: #9b7bc4; }
        .c-commits { fill: #222; background: #222; border-radius: 50%; }
        .c-batch { fill: #4f8fa8; }
        .c-raw { fill: #f0a35e; }
        .c-stored { fill: #3b73c4; }
        .c-file { fill: #9aa4ad; }
        .c-type { fill: #4f8fa8; }
        .c-segment { fill: #8fb3d9; stroke: #fff; }
        .c-segment-alt { fill: #5d8fc4; stroke: #fff; }
        .c-damaged { fill: #c62828; stroke: #fff; background: #c62828; }
        </style>
        </head>
        <body>
        <h1>{{title}}</h1>
        <p class="meta">The {{kind}} <span class="path">{{path}}</span>: {{zoneCount}} zone(s), {{records}} records, {{bytes}} of segment files; commits from {{timeRange}}.</p>
        {{#verdict}}
        <section id="verdict" class="verdict {{status}}" data-status="{{status}}">
        <p class="headline">Verify: {{headline}}</p>
        {{#hasProblems}}
        <ul>
        {{#problems}}
        <li class="problem {{severity}}">{{severity}} {{kind}} in <code>{{file}}</code> at position {{position}}, offset {{offset}}: {{message}}</li>
        {{/problems}}
        </ul>
        {{/hasProblems}}
        </section>
        {{/verdict}}
        <nav>{{#zones}}<a href="#{{anchor}}">{{name}}</a>{{/zones}}</nav>
        {{#zones}}
        <section class="zone" id="{{anchor}}" data-zone="{{name}}" data-records="{{records}}" data-batches="{{batches}}">
        <h2>Zone {{name}}</h2>
        <p class="meta">Offsets {{offsets}}; {{records}} records in {{batches}} commits; {{time}}.</p>
        {{#figures}}
        <figure class="chart" data-chart="{{chart}}" data-zone="{{zone}}">
        {{{svg}}}
        <figcaption>{{caption}}</figcaption>
        {{#hasLegend}}<ul class="legend">{{#legend}}<li><span class="swatch c-{{style}}"></span>{{name}}</li>{{/legend}}</ul>{{/hasLegend}}
        </figure>
        {{/figures}}
        <h3>Segments</h3>
        <table class="segments">
        <tr><th>file</th><th class="number">base offset</th><th class="number">bytes</th><th class="number">batches</th><th class="number">records</th><th class="number">damaged</th></tr>
        {{#segments}}
        <tr{{#isDamaged}} class="damaged-row"{{/isDamaged}}><td class="mono">{{file}}</td><td class="number">{{baseOffset}}</td><td class="number">{{bytes}}</td><td class="number">{{batches}}</td><td class="number">{{records}}</td><td class="number">{{damaged}}</td></tr>
        {{/segments}}
        </table>
        <h3>Most rewritten keys</h3>
        {{#hasRewritten}}
        <table class="rewritten">
        <tr><th>key</th><th class="number">events</th><th class="number">deletes</th><th class="number">latest offset</th></tr>
        {{#rewritten}}
        <tr><td class="mono">{{key}}</td><td class="number">{{events}}</td><td class="number">{{deletes}}</td><td class="number">{{lastOffset}}</td></tr>
        {{/rewritten}}
        </table>
        {{/hasRewritten}}
        {{^hasRewritten}}<p class="meta">No key has more than one event.</p>{{/hasRewritten}}
        <h3>Largest records</h3>
        {{#hasLargest}}
        <table class="largest">
        <tr><th class="number">offset</th><th>key</th><th>event</th><th>type</th><th class="number">bytes</th><th class="number">value bytes</th></tr>
        {{#largest}}
        <tr><td class="number">{{offset}}</td><td class="mono">{{key}}</td><td>{{event}}</td><td>{{recordType}}</td><td class="number">{{bytes}}</td><td class="number">{{valueBytes}}</td></tr>
        {{/largest}}
        </table>
        {{/hasLargest}}
        {{^hasLargest}}<p class="meta">No records.</p>{{/hasLargest}}
        <h3>Sync and other events</h3>
        {{#hasOther}}
        <table class="other-events">
        <tr><th>event or header</th><th class="number">records</th></tr>
        {{#otherEvents}}<tr><td>event {{name}}</td><td class="number">{{count}}</td></tr>{{/otherEvents}}
        {{#otherHeaders}}<tr><td>header {{name}}</td><td class="number">{{count}}</td></tr>{{/otherHeaders}}
        </table>
        {{/hasOther}}
        {{^hasOther}}<p class="meta">None: only saves, deletes and zone events, with the store's own headers.</p>{{/hasOther}}
        </section>
        {{/zones}}
        </body>
        </html>

        """
}
