//go:build desktop && webkit2_41

package main

/*
#cgo pkg-config: gtk+-3.0 webkit2gtk-4.1 x11 xi
#define _GNU_SOURCE
#include <string.h>
#include <gtk/gtk.h>
#include <gdk/gdkx.h>
#include <webkit2/webkit2.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XInput2.h>

// The keyboard stays in Waymark's window while it drives Chromium (issue 33
// point 1). Chromium's window takes the X input focus when it is mapped (the
// first browser command), on every mouse press sent to it over CDP (each
// click, and the click that starts a type), when a tab is activated and when
// it shows a window of its own: without a window manager it calls
// XSetInputFocus itself (and Orca names both windows: docs/window.md), and
// the keys typed next went into the page, with Orca reading the page. While a
// browser step runs (and 1.5 s after: Chromium maps its windows a moment
// later), a focus that leaves the window for a Chromium window is given back
// at once. A Chromium window the user goes to while no step runs keeps it.
static gint waymark_browser_busy;
static GtkWindow *waymark_top;
// waymark_quiet_focus: the window's browser is off the accessibility bus, so
// the focus it takes for a moment is kept from the screen reader too
// (waymark_focus_filter below).
static gint waymark_quiet_focus;

// The window w lies in (None for a top-level window, or when w is gone).
static Window waymark_parent(Display *dpy, Window w) {
	Window root, parent, *kids = NULL;
	unsigned int n;
	if (!XQueryTree(dpy, w, &root, &parent, &kids, &n))
		return None;
	if (kids)
		XFree(kids);
	return parent == root ? None : parent;
}

// Whether X window w (or the window it lies in) is Chromium's, by WM_CLASS.
static int waymark_is_chromium(Display *dpy, Window w) {
	for (int i = 0; i < 8 && w != None && w != PointerRoot; i++, w = waymark_parent(dpy, w)) {
		XClassHint h = {0};
		if (XGetClassHint(dpy, w, &h)) {
			int yes = (h.res_class && strcasestr(h.res_class, "chromium")) || (h.res_name && strcasestr(h.res_name, "chromium"));
			if (h.res_name)
				XFree(h.res_name);
			if (h.res_class)
				XFree(h.res_class);
			return yes;
		}
	}
	return 0;
}

static gboolean waymark_take_back(gpointer unused) {
	GtkWindow *top = waymark_top;
	GdkDisplay *gd = gdk_display_get_default();
	if (!top || !gd || !GDK_IS_X11_DISPLAY(gd) || !gtk_widget_get_window(GTK_WIDGET(top)))
		return G_SOURCE_REMOVE;
	Display *dpy = GDK_DISPLAY_XDISPLAY(gd);
	Window w;
	int revert;
	gdk_x11_display_error_trap_push(gd);
	XGetInputFocus(dpy, &w, &revert);
	if (waymark_is_chromium(dpy, w))
		gtk_window_present_with_time(top, gdk_x11_get_server_time(gtk_widget_get_window(GTK_WIDGET(top))));
	gdk_x11_display_error_trap_pop_ignored(gd);
	return G_SOURCE_REMOVE;
}

// Whether X window w is Waymark's window (or lies in it).
static int waymark_is_ours(Display *dpy, Window w) {
	GdkWindow *gw = waymark_top ? gtk_widget_get_window(GTK_WIDGET(waymark_top)) : NULL;
	if (!gw)
		return 0;
	for (int i = 0; i < 16 && w != None && w != PointerRoot; i++, w = waymark_parent(dpy, w))
		if (w == GDK_WINDOW_XID(gw))
			return 1;
	return 0;
}

// The screen reader never hears the window lose the focus for a moment.
// Chromium takes the X focus on every mouse press Waymark sends it, and
// the window took it back ~20 ms later; GTK told both changes (its window
// went inactive and active again), and Orca said the window's name each
// time ("Waymark — book.md frame.") and read the field anew. While a
// browser step runs, an X FocusOut of the window whose focus went to a
// Chromium window (or is already back) is kept from GDK: GDK tells a focus
// change only when the window's focus state flips, so the FocusIn that
// follows the take-back changes nothing either. Chromium itself is off the
// accessibility bus in the window (browser.Options.HiddenFromScreenReader),
// so its own window's activation is not heard. A focus that goes anywhere
// else, or while no step runs, is told as before.
static int waymark_xi_opcode = -1;

static GdkFilterReturn waymark_focus_filter(GdkXEvent *gx, GdkEvent *ev, gpointer unused) {
	XEvent *x = (XEvent *)gx;
	Window from = None;
	if (x->type == FocusOut && x->xfocus.detail != NotifyInferior && x->xfocus.detail != NotifyPointer)
		from = x->xfocus.window;
	else if (x->type == GenericEvent && x->xcookie.extension == waymark_xi_opcode && x->xcookie.evtype == XI_FocusOut && x->xcookie.data) {
		XIFocusOutEvent *e = (XIFocusOutEvent *)x->xcookie.data;
		if (e->detail != XINotifyInferior && e->detail != XINotifyPointer)
			from = e->event;
	}
	if (from == None || !g_atomic_int_get(&waymark_quiet_focus) || g_atomic_int_get(&waymark_browser_busy) <= 0)
		return GDK_FILTER_CONTINUE;
	GdkDisplay *gd = gdk_display_get_default();
	GdkWindow *gw = waymark_top ? gtk_widget_get_window(GTK_WIDGET(waymark_top)) : NULL;
	if (!gd || !gw || from != GDK_WINDOW_XID(gw))
		return GDK_FILTER_CONTINUE;
	Display *dpy = GDK_DISPLAY_XDISPLAY(gd);
	Window w;
	int revert, chromium = 0, ours = 0;
	gdk_x11_display_error_trap_push(gd);
	XGetInputFocus(dpy, &w, &revert);
	chromium = waymark_is_chromium(dpy, w);
	ours = !chromium && waymark_is_ours(dpy, w);
	gdk_x11_display_error_trap_pop_ignored(gd);
	if (!chromium && !ours)
		return GDK_FILTER_CONTINUE;
	// Taken back at once: keys typed meanwhile go to Chromium's page.
	if (chromium)
		g_idle_add_full(G_PRIORITY_HIGH, waymark_take_back, NULL, NULL);
	return GDK_FILTER_REMOVE;
}

// The keyboard is held by the window around each mouse press Waymark sends
// Chromium (browser.Options.HoldKeyboard): the press makes Chromium take the
// X focus, and for the few milliseconds until the window has it back a key
// typed went into the page. While the window holds the keyboard (an active
// grab, owner events on) every key comes to it wherever the X focus is, and
// GDK takes the focus that leaves meanwhile for none (it ignores a FocusOut
// "while grabbed"). The hold ends when the press is done and the focus is
// back, and after WAYMARK_HOLD_MOST_MS at the latest (a press whose page
// stops for a question holds Chromium's answer; a screen reader's own keys
// wait while the keyboard is held).
#define WAYMARK_HOLD_MOST_MS 500
static gint waymark_holds;     // presses under way
static gint waymark_grabbed;   // the window holds the keyboard (main thread)
static gint64 waymark_held_at; // when it took it (main thread)
static GMutex waymark_hold_mu;
static GCond waymark_hold_cond;
static guint waymark_hold_gen, waymark_hold_ran;

static void waymark_ungrab(void) {
	if (!waymark_grabbed)
		return;
	GdkDisplay *gd = gdk_display_get_default();
	if (gd)
		gdk_seat_ungrab(gdk_display_get_default_seat(gd));
	waymark_grabbed = 0;
}

// waymark_hold_end ends the hold once no press is under way and the X focus
// is back (or has gone to no Chromium window), or at the latest.
static gboolean waymark_hold_end(gpointer unused) {
	if (!waymark_grabbed)
		return G_SOURCE_REMOVE;
	gint64 held = (g_get_monotonic_time() - waymark_held_at) / 1000;
	if (held < WAYMARK_HOLD_MOST_MS) {
		if (g_atomic_int_get(&waymark_holds) > 0)
			return G_SOURCE_CONTINUE;
		GdkDisplay *gd = gdk_display_get_default();
		Window w;
		int revert, chromium;
		gdk_x11_display_error_trap_push(gd);
		XGetInputFocus(GDK_DISPLAY_XDISPLAY(gd), &w, &revert);
		chromium = waymark_is_chromium(GDK_DISPLAY_XDISPLAY(gd), w);
		gdk_x11_display_error_trap_pop_ignored(gd);
		if (chromium) {
			waymark_take_back(NULL);
			return G_SOURCE_CONTINUE;
		}
	}
	waymark_ungrab();
	return G_SOURCE_REMOVE;
}

static gboolean waymark_hold_start(gpointer gen) {
	GtkWindow *top = waymark_top;
	GdkWindow *gw = top ? gtk_widget_get_window(GTK_WIDGET(top)) : NULL;
	GdkDisplay *gd = gdk_display_get_default();
	if (!waymark_grabbed && g_atomic_int_get(&waymark_holds) > 0 && gw && gd && GDK_IS_X11_DISPLAY(gd) &&
	    gdk_window_is_viewable(gw) && gtk_window_is_active(top)) {
		if (gdk_seat_grab(gdk_display_get_default_seat(gd), gw, GDK_SEAT_CAPABILITY_KEYBOARD, TRUE, NULL, NULL, NULL, NULL) == GDK_GRAB_SUCCESS) {
			waymark_grabbed = 1;
			waymark_held_at = g_get_monotonic_time();
			g_timeout_add(10, waymark_hold_end, NULL);
		}
	}
	g_mutex_lock(&waymark_hold_mu);
	waymark_hold_ran = GPOINTER_TO_UINT(gen);
	g_cond_broadcast(&waymark_hold_cond);
	g_mutex_unlock(&waymark_hold_mu);
	return G_SOURCE_REMOVE;
}

// waymark_hold (any thread): the keyboard is held before the press is sent,
// waiting for GTK's main loop 100 ms at most (a press is never held up
// longer).
static void waymark_hold(void) {
	g_atomic_int_inc(&waymark_holds);
	g_mutex_lock(&waymark_hold_mu);
	guint gen = ++waymark_hold_gen;
	g_mutex_unlock(&waymark_hold_mu);
	g_idle_add_full(G_PRIORITY_HIGH, waymark_hold_start, GUINT_TO_POINTER(gen), NULL);
	gint64 end = g_get_monotonic_time() + 100 * G_TIME_SPAN_MILLISECOND;
	g_mutex_lock(&waymark_hold_mu);
	while (waymark_hold_ran < gen)
		if (!g_cond_wait_until(&waymark_hold_cond, &waymark_hold_mu, end))
			break;
	g_mutex_unlock(&waymark_hold_mu);
}

// waymark_release (any thread): the press is done.
static void waymark_release(void) {
	g_atomic_int_add(&waymark_holds, -1);
}

static gboolean waymark_focus_out(GtkWidget *w, GdkEvent *ev, gpointer unused) {
	if (g_atomic_int_get(&waymark_browser_busy) > 0)
		g_timeout_add(20, waymark_take_back, NULL);
	return FALSE;
}

// Orca said "grayed." each time the window got the focus back from Chromium
// (issue 33). GTK then reports the focus on the window's focus widget, the
// web view, whose accessible is WebKit's AtkSocket (role filler, no name);
// at-spi2-atk answers its states by asking the web process with a 1 ms
// timeout, so they come back empty (not enabled nor sensitive), which Orca
// says as "grayed". GTK reports no focus on an object of role "redundant
// object", and it reports the object a widget's accessible names as its focus
// object ("gail-focus-object") instead of that accessible: the web view's is
// given such a redundant object, so GTK's report of the bare web view is left
// out, and the web page's own report of its focused element (the command
// field) is the one Orca hears.
static GtkWidget *waymark_webview;

static void waymark_find_webview(GtkWidget *w, gpointer unused) {
	if (waymark_webview)
		return;
	if (WEBKIT_IS_WEB_VIEW(w))
		waymark_webview = w;
	else if (GTK_IS_CONTAINER(w))
		gtk_container_forall(GTK_CONTAINER(w), waymark_find_webview, NULL);
}

static void waymark_quiet_webview_focus(void) {
	waymark_find_webview(GTK_WIDGET(waymark_top), NULL);
	if (!waymark_webview)
		return;
	AtkObject *acc = gtk_widget_get_accessible(waymark_webview);
	// Only WebKit's socket (a GTK accessible reports its own states).
	if (!acc || GTK_IS_ACCESSIBLE(acc) || !ATK_IS_SOCKET(acc))
		return;
	AtkObject *quiet = g_object_new(ATK_TYPE_OBJECT, NULL);
	atk_object_set_role(quiet, ATK_ROLE_REDUNDANT_OBJECT);
	g_object_set_qdata_full(G_OBJECT(acc), g_quark_from_static_string("gail-focus-object"), quiet, g_object_unref);
}

static gboolean waymark_keyboard_start(gpointer unused) {
	GList *tops = gtk_window_list_toplevels();
	for (GList *l = tops; l; l = l->next)
		if (!waymark_top && gtk_window_get_window_type(GTK_WINDOW(l->data)) == GTK_WINDOW_TOPLEVEL)
			waymark_top = GTK_WINDOW(l->data);
	g_list_free(tops);
	if (waymark_top) {
		g_signal_connect(waymark_top, "focus-out-event", G_CALLBACK(waymark_focus_out), NULL);
		waymark_quiet_webview_focus();
		GdkDisplay *gd = gdk_display_get_default();
		int ev, err;
		if (gd && GDK_IS_X11_DISPLAY(gd)) {
			if (XQueryExtension(GDK_DISPLAY_XDISPLAY(gd), "XInputExtension", &waymark_xi_opcode, &ev, &err) == False)
				waymark_xi_opcode = -1;
			gdk_window_add_filter(NULL, waymark_focus_filter, NULL);
		}
	}
	return G_SOURCE_REMOVE;
}

static gboolean waymark_busy_end(gpointer unused) {
	g_atomic_int_add(&waymark_browser_busy, -1);
	return G_SOURCE_REMOVE;
}

static void waymark_browser_step(int busy) {
	if (busy) {
		g_atomic_int_inc(&waymark_browser_busy);
		return;
	}
	// The step ended: the focus it moved comes back, and for a moment more
	// (a window Chromium maps after the step's answer).
	g_idle_add(waymark_take_back, NULL);
	g_timeout_add(1500, waymark_busy_end, NULL);
}

static void waymark_keyboard_started(int quiet) {
	g_atomic_int_set(&waymark_quiet_focus, quiet);
	g_idle_add(waymark_keyboard_start, NULL);
}
*/
import "C"

// keepKeyboard: the window starts keeping the keyboard from Chromium during
// browser steps (on GTK's main loop, once the window is up).
// quiet: the window's browser is off the accessibility bus
// (browser.Options.HiddenFromScreenReader), so the focus it takes for a
// moment during a step is kept from the screen reader as well.
func keepKeyboard(quiet bool) {
	q := C.int(0)
	if quiet {
		q = 1
	}
	C.waymark_keyboard_started(q)
}

// holdKeyboard is browser.Options.HoldKeyboard: the window holds the
// keyboard around a mouse press sent to Chromium.
func holdKeyboard() func() {
	C.waymark_hold()
	return func() { C.waymark_release() }
}

// browserBusy is desktop.Config.BrowserBusy: a browser step starts or ends.
func browserBusy(busy bool) {
	b := C.int(0)
	if busy {
		b = 1
	}
	C.waymark_browser_step(b)
}
