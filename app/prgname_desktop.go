//go:build desktop

package main

/*
#cgo pkg-config: glib-2.0
#include <stdlib.h>
#include <glib.h>
*/
import "C"

import "unsafe"

// setProgramName names the program to GLib before GTK starts: GDK takes the
// window's WM_CLASS ("waymark", "Waymark") from it when it initialises.
// Wails' own Linux.ProgramName is applied after gtk_init, too late for that:
// the class was then the executable's file name (a copy run as h25-new had
// WM_CLASS "h25-new"), which no .desktop file's StartupWMClass names.
func setProgramName(name string) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	C.g_set_prgname(cs)
}
