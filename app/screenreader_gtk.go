//go:build desktop && webkit2_41

package main

/*
#cgo pkg-config: gtk+-3.0 webkit2gtk-4.1
#include <stdlib.h>
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>

// WebKitGTK's spell checking stays off. With it on, WebKit's web process asks
// the UI process, synchronously, to check the words being typed; a screen reader
// asks the web process about the text inside its key listener, and GTK's
// accessibility bridge waits for that listener on every key in the UI process,
// without serving WebKit's messages. Each key then waits for libatspi's method
// timeout (0.8 s) and the window freezes while the author types (measured with
// Orca 43 in the screen-reader tier: up to 11 s a key). The editor underlines
// unknown words itself, through the Spelling tool (frontend/src/lib/spelling.ts).
static gboolean waymark_spelling_off(gpointer unused) {
	webkit_web_context_set_spell_checking_enabled(webkit_web_context_get_default(), FALSE);
	return G_SOURCE_REMOVE;
}

// The window's notice: a native object of role notification inside one of role
// status bar, below the web view. Orca 43's WebKitGTK script reads no ARIA live
// region, but its default script speaks a notification when it is shown, without
// its role name when it sits in a status bar, and keeps it in Orca's list of
// notifications. A notice is hidden and shown again with each message.
// Orca reads a notice's text when it comes to the event, which may be after
// the next message was set (a busy moment: "Opening…", then "Opened…" heard
// twice). So messages take turns among a few notices: each keeps its text
// until three more have come.
#define WAYMARK_NOTICES 4
static GtkWidget *waymark_notice[WAYMARK_NOTICES], *waymark_notice_label[WAYMARK_NOTICES];
static int waymark_notice_next;

static GtkWidget *waymark_find_webview(GtkWidget *w) {
	if (WEBKIT_IS_WEB_VIEW(w))
		return w;
	GtkWidget *found = NULL;
	if (GTK_IS_CONTAINER(w)) {
		GList *kids = gtk_container_get_children(GTK_CONTAINER(w));
		for (GList *l = kids; l && !found; l = l->next)
			found = waymark_find_webview(GTK_WIDGET(l->data));
		g_list_free(kids);
	}
	return found;
}

static void waymark_notice_setup(void) {
	if (waymark_notice[0])
		return;
	GtkWidget *view = NULL;
	GList *tops = gtk_window_list_toplevels();
	for (GList *l = tops; l && !view; l = l->next)
		view = waymark_find_webview(GTK_WIDGET(l->data));
	g_list_free(tops);
	GtkWidget *box = view ? gtk_widget_get_parent(view) : NULL;
	if (!box || !GTK_IS_BOX(box))
		return;
	// A GtkLayout asks for no room whatever its child needs: the bar is one
	// pixel high and the notice in it is never seen, only heard.
	GtkWidget *bar = gtk_layout_new(NULL, NULL);
	gtk_widget_set_size_request(bar, -1, 1);
	atk_object_set_role(gtk_widget_get_accessible(bar), ATK_ROLE_STATUSBAR);
	for (int i = 0; i < WAYMARK_NOTICES; i++) {
		GtkWidget *notice = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
		atk_object_set_role(gtk_widget_get_accessible(notice), ATK_ROLE_NOTIFICATION);
		GtkWidget *label = gtk_label_new("");
		gtk_widget_get_accessible(label);
		gtk_container_add(GTK_CONTAINER(notice), label);
		gtk_widget_show(label);
		gtk_layout_put(GTK_LAYOUT(bar), notice, 0, 0);
		waymark_notice[i] = notice;
		waymark_notice_label[i] = label;
	}
	gtk_box_pack_end(GTK_BOX(box), bar, FALSE, FALSE, 0);
	gtk_widget_show(bar);
}

static gboolean waymark_notice_start(gpointer unused) {
	waymark_notice_setup();
	return G_SOURCE_REMOVE;
}

static gboolean waymark_notice_show(gpointer data) {
	waymark_notice_setup();
	if (waymark_notice[0]) {
		int i = waymark_notice_next;
		waymark_notice_next = (i + 1) % WAYMARK_NOTICES;
		gtk_widget_hide(waymark_notice[i]);
		gtk_label_set_text(GTK_LABEL(waymark_notice_label[i]), (const char *)data);
		gtk_widget_show(waymark_notice[i]);
	}
	g_free(data);
	return G_SOURCE_REMOVE;
}

static void waymark_notice_say(const char *text) {
	g_idle_add(waymark_notice_show, g_strdup(text));
}

static void waymark_window_started(void) {
	g_idle_add(waymark_spelling_off, NULL);
	g_idle_add(waymark_notice_start, NULL);
}
*/
import "C"

import (
	"sync"
	"unsafe"
)

// windowStarted runs once the window is up: WebKit's spell checking off, and
// the notice in place before the first message (on GTK's main loop).
func windowStarted() { C.waymark_window_started() }

// notices tells whether messages go to the native notice: not when the Orca
// installed reads the page's own live regions (47 and later), which would
// then say each message twice.
var notices = sync.OnceValue(func() bool { return orcaNeedsNotices(orcaVersion("/")) })

// notice shows text in the window's native notice, which Orca 43 speaks.
func notice(text string) {
	if !notices() {
		return
	}
	cs := C.CString(text)
	defer C.free(unsafe.Pointer(cs))
	C.waymark_notice_say(cs)
}
