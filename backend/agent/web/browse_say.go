package web

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
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

// spokenErrors say the browser tools' errors (written for a model) as a
// listener hears them, in English and Russian.
var spokenErrors = sync.OnceValue(func() []struct {
	re     *regexp.Regexp
	en, ru string
} {
	return []struct {
		re     *regexp.Regexp
		en, ru string
	}{
		{regexp.MustCompile(`^numbering is stale: element (\d+) \((.*)\) is number (\d+) now.*`), "Element $1 ($2) has moved: it is number $3 now. Say list for the new numbers.", "Элемент $1 ($2) сдвинулся: теперь это номер $3. Скажите «список», чтобы услышать новые номера."},
		{regexp.MustCompile(`^numbering is stale: element (\d+) \((.*)\) is no longer on the page.*`), "Element $1 ($2) is no longer on the page. Say list for the new numbers.", "Элемента $1 ($2) больше нет на странице. Скажите «список», чтобы услышать новые номера."},
		{regexp.MustCompile(`^numbering is stale.*`), "The page changed since the last list. Say list for the new numbers.", "Страница изменилась после последнего списка. Скажите «список», чтобы услышать новые номера."},
		{regexp.MustCompile(`^no numbering yet.*`), "There are no numbers yet: say list first.", "Номеров ещё нет: сначала скажите «список»."},
		{regexp.MustCompile(`^number (\d+) is not in list \d+ yet: only 1\.\.(\d+) of the page are numbered so far.*`), "Number $1 is not numbered yet: say list $1.", "Номер $1 ещё не назначен: скажите «список $1»."},
		{regexp.MustCompile(`^number (\d+) is not in list \d+ \(it numbers 1\.\.(\d+)\)`), "There is no number $1: the page has $2 elements.", "Номера $1 нет: на странице $2 элементов."},
		{regexp.MustCompile(`^list \d+ has no elements.*`), "This page has no numbered elements: scroll, wait, or go to another page.", "На этой странице нет элементов с номерами: прокрутите, подождите или перейдите на другую страницу."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) is not a text field.*`), "Element $1 ($2) is not a text field: say click $1.", "Элемент $1 ($2) — не поле ввода: скажите «нажми $1»."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) is a list box.*`), "Element $1 ($2) is a list box: say select $1 and the option.", "Элемент $1 ($2) — список выбора: скажите «выбери $1» и вариант."},
		{regexp.MustCompile(`^the page moved something \((.*)\) over element (\d+) \((.*)\) when the pointer came to it.*`), "The page moved something ($1) over element $2 ($3) as the pointer came to it: nothing was pressed. Say list to hear the page as it is now.", "Страница подвинула на элемент $2 ($3) что-то другое ($1), когда к нему подошёл указатель: ничего не нажато. Скажите «список», чтобы услышать страницу такой, какая она сейчас."},
		{regexp.MustCompile(`^the page changed element (\d+) \((.*)\) into \((.*)\) when the pointer came to it.*`), "The page changed element $1 ($2) into ($3) as the pointer came to it: nothing was pressed. Say list to hear the page as it is now.", "Страница подменила элемент $1 ($2) на другой ($3), когда к нему подошёл указатель: ничего не нажато. Скажите «список», чтобы услышать страницу такой, какая она сейчас."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) kept moving when the pointer came to it.*`), "Element $1 ($2) kept moving as the pointer came to it: nothing was pressed. Try again, or say list.", "Элемент $1 ($2) всё время сдвигался, когда к нему подходил указатель: ничего не нажато. Попробуйте ещё раз или скажите «список»."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) is a password field in a frame from (\S+), another site than the page's.*`), "Element $1 ($2) is a password field in a frame from $3, another site than this page: what you type there goes to $3. Nothing was typed. To type it there all the same, say the same command again.", "Элемент $1 ($2) — поле пароля в рамке с сайта $3, это другой сайт, не эта страница: то, что вы введёте, уйдёт на $3. Ничего не введено. Чтобы всё же ввести туда, повторите ту же команду."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) is disabled`), "Element $1 ($2) is disabled.", "Элемент $1 ($2) недоступен."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) no longer exists on the page.*`), "Element $1 ($2) is no longer on the page. Say list for the new numbers.", "Элемента $1 ($2) больше нет на странице. Скажите «список», чтобы услышать новые номера."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) is not a link, so it cannot open in a new tab.*`), "Element $1 ($2) is not a link, so it cannot open in a new tab: say click $1.", "Элемент $1 ($2) — не ссылка, в новой вкладке его не открыть: скажите «нажми $1»."},
		{regexp.MustCompile(`^there is no previous page in this tab.*`), "There is no previous page in this tab.", "В этой вкладке нет предыдущей страницы."},
		{regexp.MustCompile(`^there is no next page in this tab.*`), "There is no next page in this tab.", "В этой вкладке нет следующей страницы."},
		{regexp.MustCompile(`^there is no tab (\d+): (.*)`), "There is no tab $1: $2", "Вкладки $1 нет: $2"},
		{regexp.MustCompile(`^tab (\d+) is the only tab; it stays open`), "Tab $1 is the only tab; it stays open.", "Вкладка $1 — единственная; она остаётся открытой."},
		{regexp.MustCompile(`^Nothing answers at (\S+)\.$`), "Nothing answers at $1.", "По адресу $1 никто не отвечает."},
		{regexp.MustCompile(`^There is no site called (\S+): the name is not known\.$`), "There is no site called $1: the name is not known.", "Сайта $1 нет: такое имя неизвестно."},
		{regexp.MustCompile(`^This computer is not connected to a network\.$`), "This computer is not connected to a network.", "Компьютер не подключён к сети."},
		{regexp.MustCompile(`^(\S+) did not answer in time\.$`), "$1 did not answer in time.", "$1 не ответил вовремя."},
		{regexp.MustCompile(`^there is no heading (\d+): the page has (\d+) headings.*`), "There is no heading $1: the page has $2 headings.", "Заголовка $1 нет: на странице $2 заголовков."},
		{regexp.MustCompile(`^this page has no headings.*`), "This page has no headings: say read from start.", "На этой странице нет заголовков: скажите «читай с начала»."},
		{regexp.MustCompile(`^heading (\d+) \((.*)\) is not in the main text of the page.*`), "Heading $1 ($2) is not in the main text of the page (it heads a menu or side panel); its links are in the list.", "Заголовок $1 ($2) не в основном тексте страницы (это меню или боковая панель); его ссылки есть в списке."},
		{regexp.MustCompile(`^(?:the browser could not be started: )?no Chromium executable found.*`), "Chromium is not installed, and the browser needs it. Install it with: sudo apt install chromium", "Chromium не установлен, а без него браузер не работает. Установите его командой: sudo apt install chromium"},
		{regexp.MustCompile(`^the browser could not be started: .*`), "The browser could not be started.", "Браузер не запустился."},
		{regexp.MustCompile(`^element (\d+) of list \d+ \((.*)\) is not on the page any more.*`), "Element $1 ($2) is no longer on the page (or is there more than once). Say list for the new numbers.", "Элемента $1 ($2) больше нет на странице (или он там не один). Скажите «список», чтобы услышать новые номера."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) cannot be reached: (.*?); scroll or list again$`), "Element $1 ($2) cannot be reached ($3): scroll, or say list again.", "До элемента $1 ($2) не добраться: прокрутите страницу или снова скажите «список»."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) could not be scrolled into view`), "Element $1 ($2) could not be scrolled into view.", "Элемент $1 ($2) не прокручивается в видимую часть страницы."},
		{regexp.MustCompile(`^could not type into element (\d+) \((.*?)\): .*`), "Could not type into element $1 ($2).", "Не удалось ввести текст в элемент $1 ($2)."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) is not a list box.*`), "Element $1 ($2) is not a list box: click it, say list again and click the option's number.", "Элемент $1 ($2) — не список выбора: нажмите его, снова скажите «список» и нажмите номер варианта."},
		{regexp.MustCompile(`^"(.*)" matches several options of element (\d+): (.*); give the full text$`), "“$1” matches several options of element $2: $3. Say the whole option.", "«$1» подходит к нескольким вариантам элемента $2: $3. Скажите вариант целиком."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) has no option "(.*)"; its options: (.*)`), "Element $1 ($2) has no option “$3”. Its options: $4.", "У элемента $1 ($2) нет варианта «$3». Его варианты: $4."},
		{regexp.MustCompile(`^option "(.*)" of element (\d+) is disabled`), "Option “$1” of element $2 is disabled.", "Вариант «$1» элемента $2 недоступен."},
		{regexp.MustCompile(`^url is empty`), "The address is empty.", "Адрес пуст."},
		{regexp.MustCompile(`^url "(.*)": only http, https and file addresses can be opened`), "“$1” cannot be opened: only http, https and file addresses can.", "«$1» не открыть: открываются только адреса http, https и file."},
		{regexp.MustCompile(`^url "(.*)": give a full address such as https://example\.org`), "“$1” is not a whole address: say it like go to https://example.org.", "«$1» — не полный адрес: скажите, например, «перейди на https://example.org»."},
		{regexp.MustCompile(`^url "(.*)" has no host`), "“$1” names no site.", "В адресе «$1» нет имени сайта."},
		{regexp.MustCompile(`^url "(.*)" carries text typed into a password field.*`), "This address carries what was typed into a password field: a password is never sent in an address. Open the page without it.", "В этом адресе есть то, что введено в поле пароля: пароль никогда не отправляется в адресе. Откройте страницу без него."},
		{regexp.MustCompile(`^url "(.*)": .*`), "“$1” is not an address.", "«$1» — не адрес."},
		{regexp.MustCompile(`^link (\d+) carries text typed into a password field.*`), "Link $1 carries what was typed into a password field: it is not opened.", "В ссылке $1 есть то, что введено в поле пароля: она не открывается."},
		{regexp.MustCompile(`^(?:link \d+: )?file address "(.*?)": local files are reached only when.*`), "$1 is not opened: local files are opened only when you name them yourself.", "$1 не открыт: локальные файлы открываются, только когда вы сами их назвали."},
		{regexp.MustCompile(`^no dialog is open on the page`), "No dialog is open on the page.", "На странице нет открытого диалога."},
		{regexp.MustCompile(`^text answers only a prompt dialog.*`), "Text answers only a dialog that asks for text; answer this one with OK or Cancel.", "Текст — ответ только на диалог, который просит ввести текст; на этот ответьте «ОК» или «Отмена»."},
		{regexp.MustCompile(`^the download of (\S+) failed or was cancelled.*`), "The download of $1 failed or was cancelled; nothing was saved.", "Скачивание $1 не удалось или отменено; ничего не сохранено."},
		{regexp.MustCompile(`^no download started within .*`), "No download started: this element may not download anything.", "Скачивание не началось: похоже, этот элемент ничего не скачивает."},
		{regexp.MustCompile(`^the download of (\S+) did not finish within .*`), "The download of $1 did not finish in time.", "Скачивание $1 не закончилось вовремя."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) sends its form and has no file field.*`), "Element $1 ($2) sends its form and has no file field: say list again and pick the file field or its button.", "Элемент $1 ($2) отправляет форму, поля файла у него нет: снова скажите «список» и выберите поле файла или его кнопку."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) is not a file field.*`), "Element $1 ($2) is not a file field: say list again and pick the file field or its button.", "Элемент $1 ($2) — не поле файла: снова скажите «список» и выберите поле файла или его кнопку."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) opened a file picker that is not a file field.*`), "Element $1 ($2) opened a file picker that takes no files.", "Элемент $1 ($2) открыл выбор файла, который не принимает файлы."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) takes one file; (\d+) were given`), "Element $1 ($2) takes one file; $3 were given.", "Элемент $1 ($2) принимает один файл, а дано $3."},
		{regexp.MustCompile(`^file "(.*)": give an absolute path`), "File “$1”: give its whole path, from /.", "Файл «$1»: нужен полный путь, от /."},
		{regexp.MustCompile(`^file "(.*)" is not a regular file.*`), "“$1” is not a file (a folder or a device cannot be uploaded).", "«$1» — не файл (папку или устройство загрузить нельзя)."},
		{regexp.MustCompile(`^file "(.*)": .*no such file or directory`), "There is no file “$1”.", "Файла «$1» нет."},
		{regexp.MustCompile(`^file "(.*)"(?::| cannot be read).*`), "File “$1” cannot be read.", "Файл «$1» не читается."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) kept moving with its frame.*`), "Element $1 ($2) kept moving with its frame (scrolling or an animation): try again, or scroll to it first.", "Элемент $1 ($2) всё время сдвигается вместе со своей рамкой (прокрутка или анимация): попробуйте ещё раз или сначала прокрутите к нему."},
		{regexp.MustCompile(`^element (\d+) \((.*)\): its frame.*`), "The frame of element $1 ($2) is no longer on the page. Say list for the new numbers.", "Рамки элемента $1 ($2) больше нет на странице. Скажите «список», чтобы услышать новые номера."},
		{regexp.MustCompile(`^element (\d+) \((.*)\) lies outside the visible part of its frame.*`), "Element $1 ($2) is outside the visible part of its frame: scroll to it, or say list again.", "Элемент $1 ($2) вне видимой части своей рамки: прокрутите к нему или снова скажите «список»."},
		{regexp.MustCompile(`^this page has no tables`), "This page has no tables.", "На этой странице нет таблиц."},
		{regexp.MustCompile(`^there is no table (\d+): the page has (\d+) tables?`), "There is no table $1: the page has $2.", "Таблицы $1 нет: на странице их $2."},
		{regexp.MustCompile(`^table (\d+) has no rows below its column names`), "Table $1 has no rows below its column names.", "В таблице $1 нет строк под названиями столбцов."},
		{regexp.MustCompile(`^there is no row (\d+): table (\d+) has (\d+) rows?`), "There is no row $1: table $2 has $3.", "Строки $1 нет: в таблице $2 их $3."},
		{regexp.MustCompile(`^there is no column (\d+): table (\d+) has (\d+) columns?`), "There is no column $1: table $2 has $3.", "Столбца $1 нет: в таблице $2 их $3."},
		{regexp.MustCompile(`^table, row and column count from 1`), "Tables, rows and columns count from 1.", "Таблицы, строки и столбцы считаются с 1."},
		{regexp.MustCompile(`^mode "(.*)": cell, row, column or table`), "Say read row or read column.", "Скажите «прочитай строку» или «прочитай столбец»."},
		{regexp.MustCompile(`^text is empty: give a word or words to look for.*`), "Say what to look for: find in text and a word.", "Скажите, что искать: «найди в тексте» и слово."},
		{regexp.MustCompile(`^text is (\d+) characters long: look for at most (\d+)`), "That is $1 characters long: look for at most $2.", "Это $1 знаков: искать можно не больше $2."},
		{regexp.MustCompile(`^occurrence -?\d+: occurrences count from 1`), "Occurrences count from 1: say occurrence 3.", "Вхождения считаются с 1: скажите «вхождение 3»."},
		{regexp.MustCompile(`^there is no occurrence (\d+) of "(.*)": the page's text holds it (\d+) times?`), "There is no occurrence $1 of “$2”: the page's text holds it $3 times.", "Вхождения $1 «$2» нет: в тексте страницы их $3."},
		{regexp.MustCompile(`^from (\d+) is past the end of the main text \((\d+) characters\)`), "Character $1 is past the end of the text ($2 characters).", "Знак $1 — за концом текста (в нём $2 знаков)."},
		{regexp.MustCompile(`^no tab to close: .*`), "There is no tab to close.", "Закрывать нечего: вкладок нет."},
		{regexp.MustCompile(`^no tab's title contains "(.*)": (.*)`), "No tab's title has “$1”: $2", "Ни в одном названии вкладки нет «$1»: $2"},
		{regexp.MustCompile(`^link (\d+) \((.*)\) has no address and opened no tab: it acted in this tab instead.*`), "Link $1 ($2) has no address and opened no tab: it acted in this tab instead (the page changed: say list).", "У ссылки $1 ($2) нет адреса, и новая вкладка не открылась: она сработала в этой вкладке (страница изменилась: скажите «список»)."},
		{regexp.MustCompile(`^link (\d+) \((.*)\) has no address and opened no tab.*`), "Link $1 ($2) has no address and opened no tab: say click $1 instead.", "У ссылки $1 ($2) нет адреса, и новая вкладка не открылась: скажите «нажми $1»."},
		{regexp.MustCompile(`^could not open a new tab.*`), "Could not open a new tab.", "Не удалось открыть новую вкладку."},
		{regexp.MustCompile(`^could not switch to the tab.*`), "Could not switch to the tab.", "Не удалось перейти на вкладку."},
		{regexp.MustCompile(`^could not close tab (\d+).*`), "Could not close tab $1.", "Не удалось закрыть вкладку $1."},
		{regexp.MustCompile(`^(\S+) did not answer within .*`), "$1 did not answer in time.", "$1 не ответил вовремя."},
		{regexp.MustCompile(`^Could not open (\S+) \((.*)\)\.$`), "Could not open $1 ($2).", "Не удалось открыть $1."},
		{regexp.MustCompile(`^could not open (\S+): .*`), "Could not open $1.", "Не удалось открыть $1."},
		{regexp.MustCompile(`^the browser sessions? (?:is|are) closed`), "The browser is closed.", "Браузер закрыт."},
		{regexp.MustCompile(`^page script error.*`), "The page's script failed; say reload and try again.", "Скрипт страницы выдал ошибку; скажите «обнови» и попробуйте ещё раз."},
		{regexp.MustCompile(`^(?:reading the page|finding the place on the page): .*`), "Could not read the page; say reload and try again.", "Не удалось прочитать страницу; скажите «обнови» и попробуйте ещё раз."},
		{regexp.MustCompile(`^the page's overlay sent a list the host cannot read.*`), "The page's list could not be read; say reload, then list.", "Список страницы не прочитался; скажите «обнови», потом «список»."},
		{regexp.MustCompile(`^(?:.*: )?the frame kept changing`), "A frame on the page kept changing; try again.", "Рамка на странице всё время менялась; попробуйте ещё раз."},
		{regexp.MustCompile(`^download folder (.*?): .*`), "The download folder $1 cannot be used.", "Папкой загрузок $1 воспользоваться нельзя."},
		{regexp.MustCompile(`^set the download folder: .*`), "The download folder could not be set.", "Не удалось задать папку загрузок."},
		{regexp.MustCompile(`^save the download as (.*?): .*`), "The download could not be saved as $1.", "Скачанное не удалось сохранить как $1."},
		{regexp.MustCompile(`^too many files called (.*) in (.*)`), "There are too many files called $1 in $2.", "В папке $2 слишком много файлов с именем $1."},
		{regexp.MustCompile(`^give the files to element (\d+): .*`), "The file could not be given to element $1.", "Файл не удалось передать элементу $1."},
		{regexp.MustCompile(`^watch for a file chooser: .*`), "The page's file chooser could not be watched; try again.", "Не удалось дождаться выбора файла на странице; попробуйте ещё раз."},
		{regexp.MustCompile(`^(?:install \S+|\S+ \S+: bad answer).*`), "The page could not be prepared for reading; say reload and try again.", "Страницу не удалось подготовить к чтению; скажите «обнови» и попробуйте ещё раз."},
		{regexp.MustCompile(`^the frame runs in another browser process that did not answer in time.*`), "A frame of the page did not answer in time (it may still be loading); say list again.", "Рамка страницы не ответила вовремя (может быть, ещё загружается); снова скажите «список»."},
	}
})

// elementLabel is an element as the browser's errors name it, its role and
// quoted name in brackets: (combobox "Language of the guide"); the role is
// said in words of the listener's language.
var elementLabel = regexp.MustCompile(`\(([a-z][a-z-]*)(?: ("(?:[^"\\]|\\.)*"))?\)`)

// SpokenError says a browser tool's error in l, in the listener's words.
func SpokenError(l Lang, msg string) string {
	msg = strings.TrimSpace(msg)
	for _, e := range spokenErrors() {
		if e.re.MatchString(msg) {
			out := e.re.ReplaceAllString(msg, l.t(e.en, e.ru))
			if l == Russian {
				out = strings.ReplaceAll(out, "the tabs are ", "вкладки: ")
				out = strings.ReplaceAll(out, "no tabs are open", "открытых вкладок нет")
			}
			return Spoken(elementLabel.ReplaceAllStringFunc(out, func(m string) string {
				p := elementLabel.FindStringSubmatch(m)
				name := p[2]
				if u, err := strconv.Unquote(p[2]); err == nil {
					name = u
				}
				if name == "" {
					return "(" + roleIn(l, p[1]) + ")"
				}
				return "(" + roleIn(l, p[1]) + l.t(" “", " «") + name + l.t("”", "»") + ")"
			}))
		}
	}
	s := Spoken(msg)
	if l == Russian {
		// An error with no Russian words of its own is not read out in
		// English: the listener hears what failed in Russian.
		return "Команда не выполнена: браузер сообщил о неполадке. Скажите «список» или «обнови» и попробуйте ещё раз."
	}
	if s != "" {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

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
}

// roleIn says role in l: known roles in words, others with dashes as spaces.
func roleIn(l Lang, role string) string {
	if w, ok := roleWords[strings.ToLower(role)]; ok {
		if l == Russian {
			return w[1]
		}
		return w[0]
	}
	return strings.ReplaceAll(strings.TrimPrefix(role, "doc-"), "-", " ")
}

// refusals say in the listener's language what the browser's guard stopped
// during a call (Result.Refused).
type spokenRefusalRule struct {
	re     *regexp.Regexp
	en, ru string
}

var refusals = sync.OnceValue(func() []spokenRefusalRule {
	return []spokenRefusalRule{
		{regexp.MustCompile(`^the page asked for the local file (.*), which this session was not given; it was not opened$`), "the page asked for the local file $1, which you did not give; it was not opened", "страница запросила локальный файл $1, которого вы не давали; он не открыт"},
		{regexp.MustCompile(`^the page tried to open (\S+) with a password in the address.*`), "the page tried to open $1 with your password in the address; it was not opened (a password is never sent in an address, as it is or disguised)", "страница пыталась открыть $1 с вашим паролем в адресе; адрес не открыт (пароль никогда не отправляется в адресе, ни как есть, ни в скрытом виде)"},
		{regexp.MustCompile(`^the page tried to send a password, disguised, to (\S+); it was not sent$`), "the page tried to send your password, disguised, to $1; it was not sent", "страница пыталась отправить ваш пароль в скрытом виде на $1; он не отправлен"},
		{regexp.MustCompile(`^the page started another download \((.*)\) by itself; it was not saved.*`), "the page started another download ($1) by itself; it was not saved (a file is saved only by your download command)", "страница сама начала ещё одно скачивание ($1); оно не сохранено (файл сохраняется только по вашей команде «скачай»)"},
		{regexp.MustCompile(`^the browser did not open (\S+): a web page may not open a local file.*`), "the browser did not open $1: a web page may not open a local file (to open it yourself, go to its address)", "браузер не открыл $1: веб-странице нельзя открывать локальные файлы (чтобы открыть его самим, перейдите по его адресу)"},
	}
})

// SpokenRefusal says one thing the browser's guard stopped, in l.
func SpokenRefusal(l Lang, r string) string {
	r = strings.TrimSpace(r)
	for _, e := range refusals() {
		if e.re.MatchString(r) {
			return Spoken(e.re.ReplaceAllString(r, l.t(e.en, e.ru)))
		}
	}
	return Spoken(r)
}
