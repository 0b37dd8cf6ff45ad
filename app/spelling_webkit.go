//go:build desktop && webkit2_41

package main

/*
#cgo pkg-config: webkit2gtk-4.1
#include <stdlib.h>
#include <webkit2/webkit2.h>

// Wails creates its web view in WebKit's default context; spell checking is a
// setting of that context (underlines and the context menu's suggestions),
// which Wails' options do not reach. Run on GTK's main loop.
static gboolean waymark_spelling(gpointer data) {
	gchar **langs = g_strsplit((const gchar *)data, ",", -1);
	WebKitWebContext *c = webkit_web_context_get_default();
	webkit_web_context_set_spell_checking_languages(c, (const gchar * const *)langs);
	webkit_web_context_set_spell_checking_enabled(c, TRUE);
	g_strfreev(langs);
	g_free(data);
	return G_SOURCE_REMOVE;
}

static void waymark_enable_spelling(const char *langs) {
	g_idle_add(waymark_spelling, g_strdup(langs));
}
*/
import "C"

import (
	"strings"
	"unsafe"

	"github.com/waymark/waymark/backend/spelling"
)

// enableSpelling turns WebKitGTK's spell checking on for the Russian and
// English dictionaries that are installed (hunspell-ru, hunspell-en-us).
func enableSpelling() {
	langs := spelling.Available(spelling.Dir, spelling.Languages)
	if len(langs) == 0 {
		return
	}
	cs := C.CString(strings.Join(langs, ","))
	defer C.free(unsafe.Pointer(cs))
	C.waymark_enable_spelling(cs)
}
