package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIdentify(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"MIT License\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\nof this software ... The above copyright notice and this\npermission notice shall be included in all copies", "MIT"},
		{"Redistribution and use in source and binary forms, with or without modification ... Redistributions in binary form must reproduce ... Neither the name of Google Inc. nor", "BSD-3-Clause"},
		{"Redistribution and use in source and binary forms ... Redistributions in binary form must reproduce the above", "BSD-2-Clause"},
		{"                                 Apache License\n                           Version 2.0, January 2004", "Apache-2.0"},
		{"Mozilla Public License Version 2.0\n==================================", "MPL-2.0"},
		{"Permission to use, copy, modify, and/or distribute this software for any purpose with or without fee is hereby granted", "ISC"},
		{"DO WHAT THE FUCK YOU WANT TO PUBLIC LICENSE", ""},
		{"GNU GENERAL PUBLIC LICENSE Version 3", ""},
		{"", ""},
	} {
		if got := Identify(c.text); got != c.want {
			t.Errorf("Identify(%.40q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// Every Go module linked into the binary and every npm package bundled into
// the window has a licence the copyright file can name: adding a dependency
// whose licence this generator does not know fails here (issue 35 point 11).
func TestEveryBundledModuleHasAKnownLicence(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Write(&out, root, Bundled{Autoconsent: "12.0.0", HyphenRu: "20030310-1.1", HyphenEn: "2.8.8-7", HyphenFr: "1:7.5.0-1"}); err != nil {
		t.Fatal(err)
	}
	gomods, err := GoModules(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(gomods) < 30 {
		t.Errorf("only %d Go modules in the binary", len(gomods))
	}
	text := out.String()
	for _, want := range []string{
		"Files: *\nCopyright: 2026 The Waymark authors\nLicense: MIT\n",
		"Files: github.com/mattn/go-sqlite3/*\n",
		"License: public-domain\nComment: SQLite's amalgamation",
		"Files: github.com/yuin/goldmark/*\n",
		"Files: github.com/wailsapp/wails/v2/*\n",
		"Files: @codemirror/view/*\n",
		"Files: @lezer/markdown/*\n",
		"Files: svelte/*\n",
		"Files: usr/share/waymark/autoconsent/*\n",
		"\nLicense: MPL-2.0\n On Debian systems",
		"Files: usr/share/waymark/hyphen/hyph_ru_RU.dic\nCopyright: 1999-2003 Alexander I. Lebedev",
		"License: LPPL-1.2+\nComment: The Russian hyphenation patterns of Debian's hyphen-ru 20030310-1.1",
		"Files: usr/share/waymark/hyphen/hyph_en_US.dic\n",
		"License: GPL-2+ or LGPL-2.1+ or MPL-1.1+\n",
		"Files: usr/share/waymark/hyphen/hyph_fr.dic\nCopyright: Blaise Drayer",
		"License: LGPL-2.1+\nComment: The French hyphenation patterns of Debian's hyphen-fr 1:7.5.0-1",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the copyright file lacks %q", want)
		}
	}
	for _, e := range gomods {
		if !strings.Contains(text, "Files: "+e.Name+"/*\nCopyright: ") {
			t.Errorf("the copyright file does not list %s", e.Name)
		}
	}
	// Every licence named has its paragraph, once.
	for _, l := range []string{"MIT", "BSD-3-Clause", "Apache-2.0", "LPPL-1.2+", "GPL-2+", "LGPL-2.1+", "MPL-1.1+"} {
		if n := strings.Count(text, "\nLicense: "+l+"\n "); n != 1 {
			t.Errorf("License: %s has %d stand-alone paragraphs, want 1", l, n)
		}
	}
	// The Waymark licence is the repository's LICENSE.
	lic, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil || Identify(string(lic)) != "MIT" || !strings.Contains(string(lic), "Copyright 2026 The Waymark authors") {
		t.Errorf("LICENSE is not MIT by The Waymark authors (%v)", err)
	}
}

// A bundled npm package whose licence is unknown, or has none, stops the
// generator with its name.
func TestUnknownNpmLicenceFails(t *testing.T) {
	for _, c := range []struct{ licence, want string }{
		{"WTFPL", `npm package left-pad 1.0.0: its licence "WTFPL" is none this generator knows`},
		{"", `npm package left-pad 1.0.0: its licence "" is none this generator knows`},
		{"MIT", ""},
	} {
		root := t.TempDir()
		mk := func(p, s string) {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, p), []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		mk("frontend/package-lock.json", `{"packages": {"": {}, "node_modules/left-pad": {"version": "1.0.0"}, "node_modules/vite": {"version": "7.0.0", "dev": true}}}`)
		mk("frontend/node_modules/left-pad/package.json", `{"license": "`+c.licence+`"}`)
		es, err := NpmPackages(root)
		if c.want == "" {
			if err != nil || len(es) != 1 || es[0].Name != "left-pad" {
				t.Errorf("%q: %v %v, want left-pad only (vite is dev-only)", c.licence, es, err)
			}
			continue
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: error %v, want %s", c.licence, err, c.want)
		}
	}
}

// A Go module without a licence file, or with one of an unknown licence, is
// found by its file's text.
func TestUnknownGoLicenceFails(t *testing.T) {
	dir := t.TempDir()
	if _, err := licenceFile(dir); err == nil {
		t.Error("a module without a LICENSE file was accepted")
	}
	if err := os.WriteFile(filepath.Join(dir, "COPYING"), []byte("GNU GENERAL PUBLIC LICENSE\nVersion 3"), 0o644); err != nil {
		t.Fatal(err)
	}
	text, err := licenceFile(dir)
	if err != nil || Identify(text) != "" {
		t.Errorf("COPYING read as %q (%v)", Identify(text), err)
	}
}
