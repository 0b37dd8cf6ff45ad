package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// Reading a page's tables by cell, row and column (issue 33, point 11), as
// screen readers' table commands do: the cells apart, each with its
// column's name, and the row's first cell naming the row.

// Bounds of a table read.
const (
	maxTables      = 200
	maxTableRows   = 2000
	maxTableCols   = 50
	maxCellChars   = 300
	maxColumnCells = 40
)

// tableJS finds the page's data tables (visible, two rows and two columns
// at least, not a layout or navigation table) and returns table n's grid
// (rowspan and colspan spread over the cells they cover), its column names
// (the header rows: thead, or leading rows of th only) and its caption.
const tableJS = `function(opt) {
` + pageTextJS + `	const tables = [];
	for (const t of document.querySelectorAll('table')) {
		if (tables.length >= opt.max) break;
		const role = (t.getAttribute('role') || '').toLowerCase();
		if (role === 'presentation' || role === 'none' || !vis(t)) continue;
		if (t.querySelector('table')) continue; // a layout table holding others
		if (/navigation/i.test(t.getAttribute('summary') || '')) continue;
		if (t.rows.length < 2) continue;
		let cols = 0;
		for (const r of t.rows) cols = Math.max(cols, r.cells.length);
		if (cols < 2) continue;
		tables.push(t);
	}
	const res = { tables: tables.length };
	const t = tables[opt.table - 1];
	if (!t) return JSON.stringify(res);
	const grid = [], head = [];
	const rows = Array.from(t.rows).slice(0, ` + "2000" + `);
	rows.forEach((r, i) => {
		grid[i] = grid[i] || [];
		let c = 0;
		for (const cell of r.cells) {
			while (grid[i][c] !== undefined) c++;
			const text = clip(norm(cell.innerText || cell.textContent), ` + "300" + `);
			const rs = Math.min(Math.max(cell.rowSpan || 1, 1), rows.length - i), cs = Math.min(Math.max(cell.colSpan || 1, 1), ` + "50" + `);
			for (let y = 0; y < rs; y++) {
				grid[i + y] = grid[i + y] || [];
				for (let x = 0; x < cs && c + x < ` + "50" + `; x++) grid[i + y][c + x] = text;
			}
			c += cs;
		}
		head[i] = (r.parentElement && r.parentElement.tagName === 'THEAD') || (r.cells.length > 0 && Array.from(r.cells).every(x => x.tagName === 'TH'));
	});
	// Header rows lead the table; the rest are its data rows.
	let h = 0;
	while (h < grid.length - 1 && head[h]) h++;
	let width = 0;
	for (const r of grid) width = Math.max(width, r.length);
	// A layout's spacers (SQLite's empty first row and empty middle column
	// of td width=10) are not rows or columns a reader moves through.
	const cols = [];
	for (let c = 0; c < width; c++) if (grid.some(r => r[c])) cols.push(c);
	if (!cols.length) for (let c = 0; c < width; c++) cols.push(c);
	const fill = r => cols.map(i => r[i] === undefined ? '' : r[i]);
	const names = [];
	for (const c of cols) {
		const parts = [];
		for (let y = 0; y < h; y++) { const v = grid[y][c]; if (v && parts[parts.length - 1] !== v) parts.push(v); }
		names.push(parts.join(' '));
	}
	let caption = t.caption ? norm(t.caption.innerText) : '';
	if (!caption) caption = norm(t.getAttribute('aria-label') || '');
	if (!caption) {
		const lb = t.getAttribute('aria-labelledby');
		if (lb) caption = norm(lb.split(/\s+/).map(id => { const e = document.getElementById(id); return e ? e.innerText : ''; }).join(' '));
	}
	if (!caption) {
		const f = t.closest('figure');
		const fc = f && f.querySelector('figcaption');
		if (fc) caption = norm(fc.innerText);
	}
	if (!caption) {
		// DocBook's "Table 8.2. Numeric Types" stands just before the table
		// or its wrapper.
		for (let e = t, depth = 0; e && depth < 3 && !caption; e = e.parentElement, depth++) {
			const p = e.previousElementSibling;
			if (p && /(^|\s)title(\s|$)/.test(p.className) && norm(p.innerText).length < 200) caption = norm(p.innerText);
		}
	}
	if (!caption) caption = norm(t.getAttribute('summary') || '');
	res.caption = clip(caption, 200);
	res.headers = names;
	res.rows = grid.slice(h).filter(r => r.some(v => v)).map(fill);
	res.truncated = t.rows.length > rows.length;
	return JSON.stringify(res);
}`

// TableOptions choose the table, the cell and how much of it browser_table
// gives.
type TableOptions struct {
	Table, Row, Column int // from 1 (default 1)
	// Mode is what is read: cell (default), row (the whole row), column
	// (the column's cells, from Row on, at most 40) or table (the table's
	// size and column names, and the row).
	Mode string
}

// TableCell is one cell of a column read, with its row's name.
type TableCell struct {
	Row     int    `json:"row"`
	RowName string `json:"row_name"`
	Text    string `json:"text"`
}

// TableResult is a place in one of the page's tables.
type TableResult struct {
	Title   string   `json:"title"`
	URL     string   `json:"url"`
	Tables  int      `json:"tables"`
	Table   int      `json:"table"`
	Caption string   `json:"caption,omitempty"`
	Rows    int      `json:"rows"`
	Columns int      `json:"columns"`
	Headers []string `json:"headers"`
	Row     int      `json:"row"`
	Column  int      `json:"column"`
	Mode    string   `json:"mode"`
	// RowName is the row's first cell; ColumnName the column's header.
	RowName    string `json:"row_name"`
	ColumnName string `json:"column_name"`
	Cell       string `json:"cell"`
	// Cells is the whole row (mode row); ColumnCells the column (mode
	// column).
	Cells       []string    `json:"cells,omitempty"`
	ColumnCells []TableCell `json:"column_cells,omitempty"`
	Truncated   bool        `json:"truncated,omitempty"`
}

// Table reads a place in one of the page's data tables as it is now.
func (s *Session) Table(ctx context.Context, o TableOptions) (*TableResult, error) {
	for _, v := range []*int{&o.Table, &o.Row, &o.Column} {
		if *v == 0 {
			*v = 1
		}
	}
	if o.Table < 1 || o.Row < 1 || o.Column < 1 {
		return nil, fail(KindTableFrom1)
	}
	switch o.Mode {
	case "":
		o.Mode = "cell"
	case "cell", "row", "column", "table":
	default:
		return nil, fail(KindTableMode, o.Mode)
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	w, err := s.topWorld(ctx)
	if err != nil {
		return nil, err
	}
	var raw struct {
		Tables    int        `json:"tables"`
		Caption   string     `json:"caption"`
		Headers   []string   `json:"headers"`
		Rows      [][]string `json:"rows"`
		Truncated bool       `json:"truncated"`
	}
	if err := s.evalIn(ctx, w, tableJS, map[string]any{"table": o.Table, "max": maxTables}, &raw); err != nil {
		return nil, failWith(KindReading, err)
	}
	if raw.Tables == 0 {
		return nil, fail(KindNoTables)
	}
	if o.Table > raw.Tables {
		return nil, fail(KindNoTable, o.Table, raw.Tables)
	}
	res := &TableResult{Tables: raw.Tables, Table: o.Table, Caption: raw.Caption, Rows: len(raw.Rows), Columns: len(raw.Headers),
		Headers: raw.Headers, Row: o.Row, Column: o.Column, Mode: o.Mode, Truncated: raw.Truncated}
	if pi, err := s.info(ctx); err == nil {
		res.Title, res.URL = spaced(pi.Title), pi.URL
	}
	if res.Rows == 0 {
		return nil, fail(KindTableNoRows, o.Table)
	}
	if o.Row > res.Rows {
		return nil, fail(KindNoRow, o.Row, o.Table, res.Rows)
	}
	if o.Column > res.Columns {
		return nil, fail(KindNoColumn, o.Column, o.Table, res.Columns)
	}
	row := raw.Rows[o.Row-1]
	res.RowName, res.ColumnName, res.Cell = row[0], raw.Headers[o.Column-1], row[o.Column-1]
	switch o.Mode {
	case "row", "table":
		res.Cells = row
	case "column":
		for i := o.Row - 1; i < len(raw.Rows) && len(res.ColumnCells) < maxColumnCells; i++ {
			res.ColumnCells = append(res.ColumnCells, TableCell{Row: i + 1, RowName: raw.Rows[i][0], Text: raw.Rows[i][o.Column-1]})
		}
	}
	return res, nil
}

// TableArgs are browser_table's arguments.
type TableArgs struct {
	Table  int    `json:"table,omitempty" jsonschema:"which table of the page, from 1 (default 1)"`
	Row    int    `json:"row,omitempty" jsonschema:"which row below the column names, from 1 (default 1)"`
	Column int    `json:"column,omitempty" jsonschema:"which column, from 1 (default 1)"`
	Mode   string `json:"mode,omitempty" jsonschema:"cell (default), row (the whole row), column (the column's cells from row on, at most 40) or table (its size and column names, and the row)"`
}

func (TableArgs) Refine(s *jsonschema.Schema) {
	tools.Min(tools.Prop(s, "table"), 1)
	tools.Min(tools.Prop(s, "row"), 1)
	tools.Min(tools.Prop(s, "column"), 1)
	tools.Prop(s, "mode").Enum = []any{"cell", "row", "column", "table"}
}

// TableRef is the typed handle on browser_table.
var TableRef = tools.RefTo[TableArgs, Result[TableResult]]("browser_table")

// tableTool is browser_table: a page's tables by cell, row and column.
func tableTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, TableRef, "Read the page's data tables as screen readers' table commands do: table n's size, caption and column names, and one cell (with its row's first cell and its column's name), a whole row, or a column's cells.", (*Session).toolTable)
}

func (s *Session) toolTable(ctx context.Context, a TableArgs) (*TableResult, error) {
	return s.Table(ctx, TableOptions{Table: a.Table, Row: a.Row, Column: a.Column, Mode: a.Mode})
}
