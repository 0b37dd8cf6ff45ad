//go:build webkit2_41

// Command webkitfloor is the floor of `waymark-bench window`: a bare GTK
// window with a WebKitGTK view, set up as Waymark's window is (1180×800, no
// GPU), showing one paragraph. It reports its first paint the way the window
// does ("first paint after N ms", two animation frames after the page ran),
// so the bench can say how much of Waymark's start is WebKitGTK's own on this
// machine and how much is Waymark's. It is not part of the product.
package main

/*
#cgo pkg-config: gtk+-3.0 webkit2gtk-4.1
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include <stdio.h>

extern void floorPainted(void);

static void painted(WebKitUserContentManager *m, WebKitJavascriptResult *r, gpointer d) {
	floorPainted();
}

static void quit(GtkWidget *w, gpointer d) { gtk_main_quit(); }

static void run(void) {
	gtk_init(NULL, NULL);
	GtkWidget *win = gtk_window_new(GTK_WINDOW_TOPLEVEL);
	gtk_window_set_default_size(GTK_WINDOW(win), 1180, 800);
	gtk_window_set_title(GTK_WINDOW(win), "WebKitGTK floor");
	g_signal_connect(win, "destroy", G_CALLBACK(quit), NULL);
	WebKitUserContentManager *ucm = webkit_user_content_manager_new();
	webkit_user_content_manager_register_script_message_handler(ucm, "painted");
	g_signal_connect(ucm, "script-message-received::painted", G_CALLBACK(painted), NULL);
	WebKitWebView *view = WEBKIT_WEB_VIEW(webkit_web_view_new_with_user_content_manager(ucm));
	webkit_settings_set_hardware_acceleration_policy(webkit_web_view_get_settings(view), WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER);
	gtk_container_add(GTK_CONTAINER(win), GTK_WIDGET(view));
	gtk_widget_show_all(win);
	webkit_web_view_load_html(view,
		"<!doctype html><html><body><p>Well, Prince, so Genoa and Lucca are now just family estates.</p>"
		"<script>requestAnimationFrame(() => requestAnimationFrame(() => webkit.messageHandlers.painted.postMessage(1)))</script>"
		"</body></html>", "about:blank");
	gtk_main();
}
*/
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"time"
)

// start is when the process began (package initialisation runs first thing
// after exec), as in the window's timing hook.
var start = time.Now()

var reported bool

//export floorPainted
func floorPainted() {
	if !reported {
		reported = true
		fmt.Fprintf(os.Stderr, "waymark: first paint after %d ms: bare WebKitGTK page, 0 characters, editable\n", time.Since(start).Milliseconds())
	}
}

func main() {
	runtime.LockOSThread()
	C.run()
}
