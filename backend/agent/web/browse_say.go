package web

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/waymark/waymark/backend/browser"
)

// Lang is the language a listener speaks to the number browser: every answer
// and error comes back in the language of the command.
type Lang string

// The languages of the number commands.
const (
	English Lang = "en"
	Russian Lang = "ru"
)

// LangOf is Russian for a line with a Cyrillic letter, else English.
func LangOf(s string) Lang {
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			return Russian
		}
	}
	return English
}

// t picks the sentence of the language.
func (l Lang) t(en, ru string) string {
	if l == Russian {
		return ru
	}
	return en
}

// f is t with fmt.Sprintf.
func (l Lang) f(en, ru string, a ...any) string { return fmt.Sprintf(l.t(en, ru), a...) }

// helpLines are the help, a few commands to a line; every example in square
// brackets is a command that works as written (TestHelpExamplesWork runs
// them all, in both languages).
var helpLines = []struct{ en, ru string }{
	{"Number commands:", "Команды по номерам:"},
	{"[list]: the numbered elements, 50 at a time; [more]: the next ones of whatever was listed last; [list 51]; [list from here].",
		"[список]: элементы с номерами, по 50; [ещё]: следующие из того, что перечислено последним; [список 51]; [список отсюда]."},
	{"[click 5], [type 3 hello], [select 7 Kazan], [press Enter], [upload 2 /home/me/file.pdf], [download 6].",
		"[нажми 5], [введи 3 привет], [выбери 7 Казань], [клавиша ввод], [загрузи 2 /home/me/файл.pdf], [скачай 6]."},
	{"[read page]: title, headings, the start of the text; [read more]; [read from here]; [read from heading 3]; [read from start]; [more headings].",
		"[прочитай страницу]: название, заголовки, начало текста; [читай дальше]; [читай отсюда]; [читай с заголовка 3]; [читай с начала]; [ещё заголовки]."},
	{"[find search]: which numbers have that word. [find in text search]: the word in the page's text; [next occurrence], [previous occurrence], [occurrence 2].",
		"[найди поиск]: у каких номеров есть это слово. [найди в тексте поиск]: это слово в тексте страницы; [следующее вхождение], [предыдущее вхождение], [вхождение 2]."},
	{"[table]: a table's size, column names and first row; [next row], [next column], [row 2], [column 2], [read row], [read column].",
		"[таблица]: размер таблицы, названия столбцов и первая строка; [следующая строка], [следующий столбец], [строка 2], [столбец 2], [прочитай строку], [прочитай столбец]."},
	{"[scroll down], [scroll up], [scroll top], [scroll bottom], [scroll to 12].",
		"[прокрути вниз], [прокрути вверх], [прокрути наверх], [прокрути в конец], [прокрути к 12]."},
	{"[back], [forward], [reload], [go to example.org] or the address alone. [tabs], [tab 2], [open 4 in new tab], [close tab]. [show numbers], [hide numbers].",
		"[назад], [вперёд], [обнови], [перейди на example.org] или просто адрес. [вкладки], [вкладка 2], [открой 4 в новой вкладке], [закрой вкладку]. [покажи номера], [скрой номера]."},
}

var helpExample = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[([^\]]+)\]`) })

// Help is the help a listener hears for "help", in l.
func Help(l Lang) string {
	lines := make([]string, len(helpLines))
	for i, h := range helpLines {
		lines[i] = helpExample().ReplaceAllString(l.t(h.en, h.ru), "$1")
	}
	return strings.Join(lines, "\n")
}

// HelpExamples are the commands the help gives as examples, in each
// language: data the help is written with (TestHelpExamplesWork says each
// one through the terminal's door), made once when the program starts.
var HelpExamples = map[Lang][]string{English: helpExamples(English), Russian: helpExamples(Russian)}

func helpExamples(l Lang) []string {
	var out []string
	for _, h := range helpLines {
		for _, m := range helpExample().FindAllStringSubmatch(l.t(h.en, h.ru), -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// BrowseCommands is the help in both languages, for a window that shows it
// before anything is said.
var BrowseCommands = Help(English) + "\n" + Help(Russian)

// roleWords say an element's role as a listener hears it: ARIA's raw names
// (doc-backlink, menuitemcheckbox) in words; in Russian every role.
var roleWords = map[string][2]string{
	"link": {"link", "ссылка"}, "button": {"button", "кнопка"}, "textbox": {"textbox", "поле ввода"}, "searchbox": {"searchbox", "поле поиска"},
	"combobox": {"combobox", "поле со списком"}, "listbox": {"listbox", "список выбора"}, "checkbox": {"checkbox", "флажок"}, "radio": {"radio", "переключатель"},
	"slider": {"slider", "ползунок"}, "spinbutton": {"spinbutton", "числовое поле"}, "media": {"media", "проигрыватель"}, "clickable": {"clickable", "нажимаемый элемент"},
	"menuitem": {"menu item", "пункт меню"}, "menuitemcheckbox": {"menu check box", "флажок меню"}, "menuitemradio": {"menu radio button", "переключатель меню"},
	"tab": {"tab", "вкладка"}, "switch": {"switch", "выключатель"}, "option": {"option", "вариант"}, "treeitem": {"tree item", "пункт дерева"},
	"gridcell": {"cell", "ячейка"}, "row": {"row", "строка"}, "img": {"image", "изображение"}, "dialog": {"dialog", "диалог"},
	"doc-backlink": {"back link", "обратная ссылка"}, "doc-noteref": {"note reference", "ссылка на примечание"}, "doc-biblioref": {"bibliography reference", "ссылка на источник"},
	"doc-glossref": {"glossary reference", "ссылка на глоссарий"}, "doc-pagebreak": {"page break", "разрыв страницы"},
	"region": {"region", "область"}, "navigation": {"navigation", "навигация"}, "banner": {"banner", "шапка"}, "main": {"main", "основное содержимое"},
	"complementary": {"side panel", "боковая панель"}, "contentinfo": {"page footer", "подвал"}, "search": {"search", "поиск"}, "form": {"form", "форма"},
	"heading": {"heading", "заголовок"}, "list": {"list", "список"}, "listitem": {"list item", "пункт списка"}, "table": {"table", "таблица"},
	"cell": {"cell", "ячейка"}, "columnheader": {"column header", "заголовок столбца"}, "rowheader": {"row header", "заголовок строки"},
	"article": {"article", "статья"}, "figure": {"figure", "рисунок"}, "group": {"group", "группа"}, "toolbar": {"toolbar", "панель инструментов"},
	"menu": {"menu", "меню"}, "menubar": {"menu bar", "строка меню"}, "tablist": {"tab list", "список вкладок"}, "tabpanel": {"tab panel", "панель вкладки"},
	"alert": {"alert", "предупреждение"}, "alertdialog": {"alert dialog", "диалог предупреждения"}, "status": {"status", "строка состояния"},
	"tooltip": {"tooltip", "подсказка"}, "progressbar": {"progress bar", "индикатор выполнения"}, "separator": {"separator", "разделитель"},
	"tree": {"tree", "дерево"}, "grid": {"grid", "сетка"}, "feed": {"feed", "лента"}, "document": {"document", "документ"}, "application": {"application", "приложение"},
	// HTML elements a cover or a frame is named by (browser.Cover): no
	// listener knows a "div".
	"div": {"element", "элемент"}, "span": {"element", "элемент"}, "section": {"section", "раздел"}, "p": {"paragraph", "абзац"},
	"iframe": {"frame", "рамка"}, "frame": {"frame", "рамка"}, "header": {"page header", "шапка"}, "footer": {"page footer", "подвал"},
	"aside": {"side panel", "боковая панель"}, "nav": {"navigation", "навигация"}, "a": {"link", "ссылка"}, "input": {"field", "поле"},
	"image": {"image", "изображение"}, "canvas": {"picture", "рисунок"}, "video": {"video", "видео"},
}

// roleIn says role in l: known roles in words; another in English with
// dashes as spaces, and in Russian as «элемент» (never an English word in a
// Russian sentence).
func roleIn(l Lang, role string) string {
	if w, ok := roleWords[strings.ToLower(role)]; ok {
		if l == Russian {
			return w[1]
		}
		return w[0]
	}
	if l == Russian {
		return "элемент"
	}
	return strings.ReplaceAll(strings.TrimPrefix(role, "doc-"), "-", " ")
}

// refusals say what the browser's guard stopped during a call
// (browser.Refusal), by its kind, in the listener's language.
var refusals = map[browser.RefusalKind]sentence{
	browser.RefusedLocalFile: {"the page asked for the local file %[1]v, which you did not give; it was not opened",
		"страница запросила локальный файл %[1]v, которого вы не давали; он не открыт"},
	browser.RefusedPasswordInAddress: {"the page tried to open %[1]v with your password in the address; it was not opened (a password is never sent in an address, as it is or disguised)",
		"страница пыталась открыть %[1]v с вашим паролем в адресе; адрес не открыт (пароль никогда не отправляется в адресе, ни как есть, ни в скрытом виде)"},
	browser.RefusedDisguisedPassword: {"the page tried to send your password, disguised, to %[1]v; it was not sent",
		"страница пыталась отправить ваш пароль в скрытом виде на %[1]v; он не отправлен"},
	browser.RefusedDownload: {"the page started another download (%[1]v) by itself; it was not saved (a file is saved only by your download command)",
		"страница сама начала ещё одно скачивание (%[1]v); оно не сохранено (файл сохраняется только по вашей команде «скачай»)"},
	browser.RefusedFileAddress: {"the browser did not open %[1]v: a web page may not open a local file (to open it yourself, go to its address)",
		"браузер не открыл %[1]v: веб-странице нельзя открывать локальные файлы (чтобы открыть его самим, перейдите по его адресу)"},
}

// SpokenRefusal says one thing the browser's guard stopped, in l.
func SpokenRefusal(l Lang, r browser.Refusal) string {
	if s, ok := refusals[r.Kind]; ok {
		return s.say(l, r.What)
	}
	return Spoken(r.String())
}
