// The window's words, English and Russian side by side (i18n.svelte.ts picks
// one side). A string is a pair; a message with values in it is a pair of
// functions of the same arguments (f).

type Fn<A extends unknown[]> = (...a: A) => string;
/** f pairs the English and the Russian of a message with values. */
function f<A extends unknown[]>(en: Fn<A>, ru: Fn<A>): readonly [Fn<A>, Fn<A>] {
  return [en, ru];
}

/** ruPlural picks the Russian noun form for n: one (1, 21), few (2–4), many. */
function rp(n: number, one: string, few: string, many: string): string {
  const m = Math.abs(n) % 100;
  if (m % 10 === 1 && m !== 11) return one;
  if (m % 10 >= 2 && m % 10 <= 4 && (m < 12 || m > 14)) return few;
  return many;
}
const s = (n: number) => (n === 1 ? '' : 's');
const enN = new Intl.NumberFormat('en');
const ruN = new Intl.NumberFormat('ru');
/** ne, nr write a count in English (1,234) and Russian (1 234). */
export const ne = (n: number) => enN.format(n);
export const nr = (n: number) => ruN.format(n);

export const messages = {
  // App: the header, the workspaces, the footer.
  skip: ['Skip to the workspace', 'К рабочей области'],
  workspaces: ['Workspaces', 'Рабочие области'],
  wsManuscript: ['Manuscript', 'Рукопись'],
  wsBrowser: ['Browser', 'Браузер'],
  wsSettings: ['Settings', 'Настройки'],
  wsSaid: f(
    (name: string) => `${name} workspace.`,
    (name: string) => `Рабочая область «${name}».`,
  ),
  stop: ['Stop', 'Стоп'],
  stopTitle: ['Stop what is running (Ctrl+Shift+X)', 'Остановить то, что выполняется (Ctrl+Shift+X)'],
  dismiss: ['Dismiss', 'Закрыть'],
  dismissTitle: ['Dismiss this message', 'Убрать это сообщение'],
  transcript: ['Transcript', 'Журнал'],
  focusOn: [
    'Distraction-free mode: only the text. Ctrl+Shift+Enter or Escape leaves it.',
    'Режим без отвлечений: только текст. Выход — Ctrl+Shift+Enter или Escape.',
  ],
  focusOff: ['Distraction-free mode off.', 'Режим без отвлечений выключен.'],
  workspacesFailed: f(
    (e: string) => `The Browser and Settings workspaces could not be loaded: ${e}`,
    (e: string) => `Не удалось загрузить области «Браузер» и «Настройки»: ${e}`,
  ),

  // Settings.
  stModelServer: ['Model server', 'Сервер модели'],
  stModelServerNote: [
    'Any OpenAI-compatible server on this machine or network (Ollama, llama.cpp server, LM Studio, vLLM). Leave the address empty to use the built-in engine.',
    'Любой сервер, совместимый с OpenAI, на этой машине или в сети (Ollama, сервер llama.cpp, LM Studio, vLLM). Оставьте адрес пустым, чтобы работал встроенный помощник.',
  ],
  stEnvModel: [' WAYMARK_MODEL_URL is set and takes precedence.', ' Задана WAYMARK_MODEL_URL, и она главнее.'],
  stServerAddress: ['Server address', 'Адрес сервера'],
  stModel: ['Model', 'Модель'],
  stNotInstalled: f(
    (m: string) => `${m} — not installed on this server`,
    (m: string) => `${m} — не установлена на этом сервере`,
  ),
  stWindowTokens: f(
    (name: string, n: string, src: string) => `${name} — ${n}-token window (${src})`,
    (name: string, n: string, src: string) => `${name} — окно ${n} токенов (${src})`,
  ),
  stWindowUntold: f(
    (name: string) => `${name} — window not told by the server`,
    (name: string) => `${name} — окно сервер не сообщил`,
  ),
  stAsking: ['Asking…', 'Спрашиваю…'],
  stListModels: ["List the server's models", 'Список моделей сервера'],
  stAskingModels: ['Asking the server for its models…', 'Спрашиваю у сервера его модели…'],
  stModelsOnServer: f(
    (n: number) => `${n} model${s(n)} on the server.`,
    (n: number) => `На сервере ${n} ${rp(n, 'модель', 'модели', 'моделей')}.`,
  ),
  stKey: ['Key (optional)', 'Ключ (необязательно)'],
  stKeyInKeyring: [', one is stored in the system keyring', ', сохранён в системной связке ключей'],
  stKeyStored: [', one is stored', ', сохранён'],
  stKeyElsewhere: f(
    (o: string) =>
      `The stored key belongs to ${o}: it is not sent to this address, and saving this address forgets it. Type this server's key if it needs one.`,
    (o: string) =>
      `Сохранённый ключ дан для ${o}: на этот адрес он не отправляется, а при сохранении этого адреса будет забыт. Введите ключ этого сервера, если он нужен.`,
  ),
  stForgetKey: ['Forget the stored key', 'Забыть сохранённый ключ'],
  stTimeLimit: ['Time limit of a command, minutes (0: none)', 'Предел времени команды, минуты (0 — без предела)'],
  stTimeLimitNote: [
    'A command that takes longer is stopped and says so. While it waits for the model server, the status line says so every few seconds.',
    'Команда, которая идёт дольше, останавливается и говорит об этом. Пока она ждёт сервер модели, строка состояния сообщает об этом каждые несколько секунд.',
  ],
  stTesting: ['Testing…', 'Проверяю…'],
  stTestingConnection: ['Testing the connection…', 'Проверяю соединение…'],
  stTest: ['Test connection', 'Проверить соединение'],
  stReachable: ['Server reachable', 'Сервер доступен'],
  yes: ['yes', 'да'],
  no: ['no', 'нет'],
  stContext: ['Context window', 'Окно контекста'],
  stTokens: f(
    (n: string, src: string) => `${n} tokens — ${src}`,
    (n: string, src: string) => `${n} токенов — ${src}`,
  ),
  stNotTold: ['not told by the server', 'сервер не сообщил'],
  stHeldTo: f(
    (n: string) => `; requests are held to ${n} tokens`,
    (n: string) => `; запросы не длиннее ${n} токенов`,
  ),
  stChat: ['Chat', 'Чат'],
  stToolCalling: ['Tool calling', 'Вызов инструментов'],
  stJSONSchema: ['JSON schema', 'Схема JSON'],
  stWorks: ['works', 'работает'],
  stDoesNotWork: ['does not work', 'не работает'],
  stBrowser: ['Browser', 'Браузер'],
  stBanners: ['Close cookie banners automatically', 'Закрывать баннеры о cookie сами'],
  stBannerPasses: ['Banner passes (1–3)', 'Проходов по баннерам (1–3)'],
  stBannerBudget: ['Banner time budget, ms', 'Время на баннеры, мс'],
  stBannerPass: ['Time per later pass, ms', 'Время на каждый следующий проход, мс'],
  stPause: ['Pause between assistant steps, ms', 'Пауза между шагами помощника, мс'],
  stIterations: ['Iteration limit (steps per goal)', 'Предел шагов на одну цель'],
  stAskTimeout: ['Time to answer a question, seconds', 'Время на ответ на вопрос, секунды'],
  stDownloadDir: ['Download folder', 'Папка загрузок'],
  stNameExists: ["When a downloaded file's name exists", 'Если файл с таким именем уже есть'],
  stKeepBoth: ['Keep both (rename the new one)', 'Оставить оба (новый переименовать)'],
  stReplaceOld: ['Replace the old one', 'Заменить старый'],
  stBooks: ['Books', 'Книги'],
  stAuthor: ["Author's name on exported books", 'Имя автора в экспортированных книгах'],
  stAuthorNote: [
    "DOCX, EPUB and PDF carry it, unless the book's front matter names an author.",
    'Его получают DOCX, EPUB и PDF, если в начальных данных книги автор не указан.',
  ],
  stWindow: ['Window', 'Окно'],
  stLanguage: ['Language', 'Язык'],
  stAutomatic: f(
    (sys: string) => `Automatic (${sys})`,
    (sys: string) => `Автоматически (${sys})`,
  ),
  stTheme: ['Theme', 'Тема'],
  stLight: ['Light', 'Светлая'],
  stDark: ['Dark', 'Тёмная'],
  stContrast: ['High contrast', 'Высокий контраст'],
  stFontSize: ['Font size, pixels (10–40)', 'Размер шрифта, пиксели (10–40)'],
  stSpeech: ["Speak the window's messages aloud", 'Произносить сообщения окна вслух'],
  stSpeechNote: [
    'For working without a screen reader: it stays silent while one runs (Orca says the same messages itself).',
    'Для работы без экранного чтеца: пока он запущен, окно молчит (Orca сама читает те же сообщения).',
  ],
  stSpeechUses: f(
    (p: string) => `Uses ${p}.`,
    (p: string) => `Используется ${p}.`,
  ),
  stSpeechMissing: [
    'Needs speech-dispatcher (spd-say) or espeak-ng, and neither is installed.',
    'Нужен speech-dispatcher (spd-say) или espeak-ng, но ни один не установлен.',
  ],
  stSave: ['Save settings', 'Сохранить настройки'],
  stSaved: ['Settings saved.', 'Настройки сохранены.'],

  // Manuscript: the toolbar, the save state, the counts.
  msTitle: ['Manuscript', 'Рукопись'],
  msActions: ['Manuscript actions', 'Действия с рукописью'],
  msNew: ['New…', 'Новая…'],
  msNewTitle: ['A new book from its title (Ctrl+N)', 'Новая книга по её названию (Ctrl+N)'],
  msOpen: ['Open…', 'Открыть…'],
  msOpenTitle: ['Open a book (Ctrl+O)', 'Открыть книгу (Ctrl+O)'],
  msUndo: ['Undo', 'Отменить'],
  msUndoTitle: ['Undo (Ctrl+Z)', 'Отменить (Ctrl+Z)'],
  msRedo: ['Redo', 'Вернуть'],
  msRedoTitle: ['Redo (Ctrl+Shift+Z)', 'Вернуть (Ctrl+Shift+Z)'],
  msSave: ['Save now', 'Сохранить'],
  msSaveTitle: ['Save now (Ctrl+S); typing is saved by itself', 'Сохранить сейчас (Ctrl+S); набранное сохраняется само'],
  msExport: ['Export…', 'Экспорт…'],
  msExportTitle: ['Export as Markdown, HTML, DOCX or EPUB', 'Экспорт в Markdown, HTML, DOCX или EPUB'],
  msFocus: ['Focus', 'Без отвлечений'],
  msFocusTitle: ['Distraction-free: the text alone (Ctrl+Shift+Enter)', 'Без отвлечений: только текст (Ctrl+Shift+Enter)'],
  msSaveState: ['Save state', 'Сохранение'],
  msText: ['Manuscript text', 'Текст рукописи'],
  msTools: ['Tools', 'Инструменты'],
  msToolsTabs: ['Manuscript tools', 'Инструменты рукописи'],
  pCommand: ['Command', 'Команда'],
  pSearch: ['Search', 'Поиск'],
  pSets: ['Sets', 'Наборы'],
  pRead: ['Read', 'Чтение'],
  pHistory: ['History', 'История'],
  pPeople: ['People', 'Персонажи'],
  svOpening: ['Opening…', 'Открывается…'],
  svSaved: ['Saved', 'Сохранено'],
  svSavedRev: f(
    (rev: number) => `Saved (revision ${rev})`,
    (rev: number) => `Сохранено (правка ${rev})`,
  ),
  svSavedBoth: ['Saved; both versions kept (Ctrl+Shift+D)', 'Сохранено; обе версии оставлены (Ctrl+Shift+D)'],
  svUnsaved: ['Unsaved changes', 'Есть несохранённое'],
  svSaving: ['Saving…', 'Сохраняется…'],
  svNotSaved: ['Not saved', 'Не сохранено'],
  svNotOpened: ['Not opened', 'Не открыто'],
  msOpeningManuscript: ['Opening the manuscript…', 'Открываю рукопись…'],
  msOpeningName: f(
    (name: string) => `Opening ${name}…`,
    (name: string) => `Открываю ${name}…`,
  ),
  msOpeningSized: f(
    (name: string, size: string) => `Opening ${name} (${size})…`,
    (name: string, size: string) => `Открываю ${name} (${size})…`,
  ),
  msOpened: f(
    (name: string, size: string, words: number, headings: number) => `Opened ${name}, ${size}: ${ne(words)} words, ${headings} headings.`,
    (name: string, size: string, words: number, headings: number) =>
      `Открыта книга ${name}, ${size}: ${nr(words)} ${rp(words, 'слово', 'слова', 'слов')}, ${headings} ${rp(headings, 'заголовок', 'заголовка', 'заголовков')}.`,
  ),
  msNotSavedTyping: f(
    (e: string) => `Your typing was not saved: ${e}`,
    (e: string) => `Набранное не сохранено: ${e}`,
  ),
  msConverted: f(
    (kept: string) => `Converted to UTF-8; the UTF-16 file is kept as ${kept}.`,
    (kept: string) => `Переведено в UTF-8; файл в UTF-16 сохранён как ${kept}.`,
  ),
  msNothingWaits: ['Nothing waits for an answer.', 'Ничто не ждёт ответа.'],
  // The counts line (· between parts) and the same said aloud (sentences);
  // chapter is null before the first heading.
  msCounts: f(
    (book: number, chapter: { text: string; words: number } | null, sel: number, today: number) =>
      `Book ${ne(book)} words · ${chapter ? `${chapter.text}: ${ne(chapter.words)}` : 'Before the first heading'} · Selection ${ne(sel)} · Today ${today >= 0 ? '+' : ''}${ne(today)}`,
    (book: number, chapter: { text: string; words: number } | null, sel: number, today: number) =>
      `Книга: ${nr(book)} ${rp(book, 'слово', 'слова', 'слов')} · ${chapter ? `${chapter.text}: ${nr(chapter.words)}` : 'До первого заголовка'} · Выделено: ${nr(sel)} · Сегодня: ${today >= 0 ? '+' : ''}${nr(today)}`,
  ),
  msSpokenCounts: f(
    (book: number, chapter: { text: string; words: number } | null, sel: number, today: number) =>
      `Book ${ne(book)} words. ${chapter ? `${chapter.text}, ${ne(chapter.words)} words` : 'Before the first heading'}. Selection ${ne(sel)} words. Today ${today >= 0 ? '+' : ''}${ne(today)} words.`,
    (book: number, chapter: { text: string; words: number } | null, sel: number, today: number) =>
      `Книга: ${nr(book)} ${rp(book, 'слово', 'слова', 'слов')}. ${chapter ? `${chapter.text}: ${nr(chapter.words)} ${rp(chapter.words, 'слово', 'слова', 'слов')}` : 'До первого заголовка'}. Выделено: ${nr(sel)} ${rp(sel, 'слово', 'слова', 'слов')}. Сегодня: ${today >= 0 ? '+' : ''}${nr(today)} ${rp(today, 'слово', 'слова', 'слов')}.`,
  ),

  // History.
  hiTitle: ['Revision history', 'История правок'],
  refresh: ['Refresh', 'Обновить'],
  hiRevision: f(
    (n: number) => `Revision ${n}`,
    (n: number) => `Правка ${n}`,
  ),
  hiUndone: [' (undone)', ' (отменена)'],
  hiCurrent: [' (current)', ' (текущая)'],
  hiRestore: ['Restore', 'Вернуть'],
  hiRestoreLabel: f(
    (n: number) => `Restore revision ${n}`,
    (n: number) => `Вернуть правку ${n}`,
  ),
  hiRestored: f(
    (n: number, now: number) => `Restored: the text is as it was at revision ${n} (now revision ${now}).`,
    (n: number, now: number) => `Восстановлено: текст такой, каким был в правке ${n} (теперь правка ${now}).`,
  ),

  // Conflicts: a paragraph changed here and elsewhere (where is quoted).
  cfBeginning: ['the beginning of the book', 'начало книги'],
  cfOffered: f(
    (where: string) =>
      `A paragraph in ${where} was changed elsewhere while you typed in it. Both versions are kept, yours in the book; Ctrl+Shift+D shows them side by side to choose.`,
    (where: string) =>
      `Абзац в ${where} изменили в другом месте, пока вы его печатали. Обе версии сохранены, ваша — в книге; Ctrl+Shift+D покажет их рядом, чтобы выбрать.`,
  ),
  cfGone: f(
    (where: string) => `The paragraph in ${where} is no longer in the text; the other version stays in the history.`,
    (where: string) => `Абзаца в ${where} больше нет в тексте; другая версия осталась в истории.`,
  ),
  cfKeptMine: f(
    (where: string) => `Kept your version of the paragraph in ${where}; the other one stays in the history.`,
    (where: string) => `Оставлена ваша версия абзаца в ${where}; другая осталась в истории.`,
  ),
  cfTookTheirs: f(
    (where: string) => `The paragraph in ${where} is now the other version; yours stays in the history (Ctrl+Z brings it back).`,
    (where: string) => `Абзац в ${where} теперь в другой версии; ваша осталась в истории (Ctrl+Z вернёт её).`,
  ),
  cfBoth: f(
    (where: string) => `Both versions of the paragraph in ${where} are in the book now, yours first.`,
    (where: string) => `Обе версии абзаца в ${where} теперь в книге, ваша первой.`,
  ),
  cfTitle: ['Changed here and elsewhere', 'Изменено здесь и в другом месте'],
  cfHeading: f(
    (where: string) => `A paragraph in ${where} was changed here and elsewhere`,
    (where: string) => `Абзац в ${where} изменён здесь и в другом месте`,
  ),
  cfMine: ['Yours (in the book)', 'Ваша (в книге)'],
  cfTheirs: ['The other version', 'Другая версия'],
  cfKeepMine: ['Keep mine', 'Оставить мою'],
  cfUseTheirs: ['Use the other version', 'Взять другую'],
  cfKeepBoth: ['Keep both', 'Оставить обе'],

  // The file on disk.
  dkAlert: f(
    (detail: string) => `${detail}. What you type is kept in the window; Ctrl+Shift+D says what can be done.`,
    (detail: string) => `${detail}. Набранное остаётся в окне; Ctrl+Shift+D скажет, что можно сделать.`,
  ),
  dkGone: ['The file is gone from disk', 'Файла больше нет на диске'],
  dkNoText: ['The file on disk no longer holds the text', 'Файл на диске больше не содержит текста'],
  dkDetail: f(
    (detail: string) => `${detail}. Your text is kept in the window; both versions stay in the revision history.`,
    (detail: string) => `${detail}. Ваш текст остаётся в окне; обе версии сохраняются в истории правок.`,
  ),
  dkWrite: ['Write my version to the file', 'Записать мою версию в файл'],
  dkCompare: ['Compare', 'Сравнить'],
  dkDifferences: ['Differences', 'Различия'],
  dkCompared: f(
    (n: number) => `${ne(n)} line${s(n)} differ between your version and the file on disk.`,
    (n: number) => `Отличаются от файла на диске: ${nr(n)} ${rp(n, 'строка', 'строки', 'строк')}.`,
  ),
  dkWrittenBack: ['Your version was written back to the file.', 'Ваша версия снова записана в файл.'],
  dkWrittenOver: [
    "Your version was written to the file over the other program's; both stay in the history.",
    'Ваша версия записана в файл вместо версии другой программы; обе остаются в истории.',
  ],
  dkLineByLine: ['Differences, line by line', 'Различия по строкам'],
  dkOnlyMine: ['Only in Waymark: ', 'Только в Waymark: '],
  dkOnlyDisk: ['Only on disk: ', 'Только на диске: '],

  // Edits to review.
  erTitle: ['Edits to review', 'Правки на проверку'],
  erRevision: f(
    (n: number) => `(revision ${n})`,
    (n: number) => `(правка ${n})`,
  ),
  erBefore: ['Before', 'Было'],
  erAfter: ['After', 'Стало'],
  erContext: ['Cursor context', 'Текст вокруг курсора'],
  erAccept: ['Accept', 'Принять'],
  erAcceptLabel: f(
    (what: string) => `Accept: ${what}`,
    (what: string) => `Принять: ${what}`,
  ),
  erUndo: ['Undo', 'Отменить'],
  erUndoEdit: ['Undo this edit', 'Отменить правку'],
  erUndoLabel: f(
    (what: string) => `Undo this edit: ${what}`,
    (what: string) => `Отменить правку: ${what}`,
  ),
  erShow: ['Show in text', 'Показать в тексте'],

  // The Command panel.
  cmTitle: ['Command', 'Команда'],
  cmField: ['Command (Ctrl+Shift+K)', 'Команда (Ctrl+Shift+K)'],
  cmPlaceholder: ['find the first mention of "Zvezdochkin"', 'найди первое упоминание «Звездочкин»'],
  cmRunning: ['Running…', 'Выполняется…'],
  cmRun: ['Run', 'Выполнить'],
  cmBuiltin: ['Built-in engine (no model server).', 'Встроенный помощник (без сервера модели).'],
  cmModel: f(
    (m: string) => `Model: ${m}.`,
    (m: string) => `Модель: ${m}.`,
  ),
  cmCommands: ['Commands', 'Команды'],
  cmTranscript: ['Transcript', 'Журнал'],
  cmNone: ['No commands yet.', 'Команд ещё не было.'],
  cmYou: f(
    (text: string) => `You: ${text}`,
    (text: string) => `Вы: ${text}`,
  ),

  // Dialogs: Export, New, Open.
  close: ['Close', 'Закрыть'],
  cancel: ['Cancel', 'Отмена'],
  browse: ['Browse…', 'Выбрать…'],
  file: ['File', 'Файл'],
  title: ['Title', 'Название'],
  exTitle: ['Export the manuscript', 'Экспорт рукописи'],
  exFormat: ['Format', 'Формат'],
  exDocx: ['DOCX (Word, LibreOffice)', 'DOCX (Word, LibreOffice)'],
  exEpub: ['EPUB (e-books)', 'EPUB (электронные книги)'],
  exNeedsChromium: [' (needs Chromium)', ' (нужен Chromium)'],
  exNeedsPandoc: [' (needs pandoc)', ' (нужен pandoc)'],
  exPage: ['Page size', 'Размер страницы'],
  exA5: ["A5 (a paperback's page)", 'A5 (страница карманной книги)'],
  exNoPandoc: [
    'DOCX and EPUB need pandoc, which is not installed. Install it with: sudo apt install pandoc',
    'Для DOCX и EPUB нужен pandoc, а он не установлен. Установить: sudo apt install pandoc',
  ],
  exBook: ['Book', 'Книга'],
  exBookNote: [
    'Filled in from what you set for this book before, else its front matter, its title heading or file name, the author in Settings and the language of its text. What you change is kept for this book.',
    'Заполнено тем, что вы задали для этой книги раньше, иначе — из её начальных данных, заглавного заголовка или имени файла, автора в настройках и языка её текста. Что вы измените, запомнится для этой книги.',
  ],
  exAuthor: ['Author', 'Автор'],
  exLanguage: ['Language (ru, en…)', 'Язык (ru, en…)'],
  exDate: ['Date (YYYY, YYYY-MM or YYYY-MM-DD)', 'Дата (ГГГГ, ГГГГ-ММ или ГГГГ-ММ-ДД)'],
  exRights: ['Rights', 'Права'],
  exCover: ['Cover picture (a full path; EPUB and PDF)', 'Картинка обложки (полный путь; EPUB и PDF)'],
  exPictures: ["One more folder the book's pictures may come from (a full path)", 'Ещё одна папка, откуда могут браться картинки книги (полный путь)'],
  exReplace: ['Replace the file if it exists', 'Заменить файл, если он есть'],
  exExport: ['Export', 'Экспортировать'],
  exDone: f(
    (path: string, size: string, title: string, author: string, note: string) =>
      `Exported to ${path} (${size})${title ? `: “${title}”${author ? ` by ${author}` : ''}` : ''}.${note ? ' ' + note + '.' : ''}`,
    (path: string, size: string, title: string, author: string, note: string) =>
      `Экспортировано в ${path} (${size})${title ? `: «${title}»${author ? `, автор ${author}` : ''}` : ''}.${note ? ' ' + note + '.' : ''}`,
  ),
  nwTitle: ['New book', 'Новая книга'],
  nwMissing: f(
    (path: string) => `There is no book at ${path} yet. Create it?`,
    (path: string) => `Книги ${path} ещё нет. Создать её?`,
  ),
  nwPlaceholder: ['The Lighthouse Keeper', 'Смотритель маяка'],
  nwCreate: ['Create', 'Создать'],
  opTitle: ['Open a manuscript', 'Открыть рукопись'],
  opSavedAs: f(
    (name: string, enc: string) => `${name} is saved as ${enc}`,
    (name: string, enc: string) => `${name} сохранён в ${enc}`,
  ),
  opConvertNote: f(
    (name: string) =>
      `Waymark edits UTF-8, the encoding Markdown tools read. Converting keeps every character as it is; the UTF-16 file is kept beside the book as ${name}.utf16.`,
    (name: string) =>
      `Waymark правит UTF-8 — кодировку, которую читают инструменты Markdown. Перевод сохраняет каждый знак как есть; файл в UTF-16 остаётся рядом с книгой как ${name}.utf16.`,
  ),
  opConvert: ['Convert to UTF-8 and open', 'Перевести в UTF-8 и открыть'],
  opDontConvert: ["Don't convert", 'Не переводить'],
  opPath: ['Path of a Markdown file', 'Путь к файлу Markdown'],
  opExample: ['For example: /home/you/novel.md', 'Например: /home/you/novel.md'],
  opOpen: ['Open', 'Открыть'],
  opRecent: ['Recent files', 'Недавние файлы'],
  opMissing: [' (missing)', ' (нет файла)'],

  // The outline and the Read panel.
  olTitle: ['Outline', 'Оглавление'],
  olWords: f(
    (n: number) => `${ne(n)} words`,
    (n: number) => `${nr(n)} ${rp(n, 'слово', 'слова', 'слов')}`,
  ),
  rdTitle: ['Read by portions', 'Чтение по частям'],
  rdNext: ['Next portion', 'Следующая часть'],
  rdNextTitle: ['Next portion (Alt+PageDown)', 'Следующая часть (Alt+PageDown)'],
  rdPrevious: ['Previous portion', 'Предыдущая часть'],
  rdPreviousTitle: ['Previous portion (Alt+PageUp)', 'Предыдущая часть (Alt+PageUp)'],
  rdStartOver: ['Start over', 'Сначала'],
  rdFirst: ['This is the first portion read.', 'Это первая прочитанная часть.'],
  rdPortion: f(
    (n: number, from: string, to: string, end: boolean) => `Portion ${n}: ${from}–${to}${end ? ' (the end)' : ''}`,
    (n: number, from: string, to: string, end: boolean) => `Часть ${n}: ${from}–${to}${end ? ' (конец)' : ''}`,
  ),
  rdShow: ['Show in the editor', 'Показать в тексте'],
  rdNote: [
    'Reads the book a few paragraphs at a time, from where you stopped last.',
    'Читает книгу по нескольку абзацев, с того места, где вы остановились.',
  ],

  // The find bar.
  fbRegion: ['Find and replace in the text', 'Поиск и замена в тексте'],
  fbFind: ['Find', 'Найти'],
  fbFindTitle: ['Find in the text (Ctrl+F); Enter: next, Shift+Enter: previous', 'Найти в тексте (Ctrl+F); Enter — следующее, Shift+Enter — предыдущее'],
  fbPrevious: ['Previous', 'Предыдущее'],
  fbPreviousTitle: ['Previous match (Shift+Enter, Shift+F3)', 'Предыдущее совпадение (Shift+Enter, Shift+F3)'],
  fbNext: ['Next', 'Следующее'],
  fbNextTitle: ['Next match (Enter, F3)', 'Следующее совпадение (Enter, F3)'],
  fbReplaceOpen: ['Replace…', 'Заменить…'],
  fbReplaceOpenTitle: ['Replace (Ctrl+H)', 'Заменить (Ctrl+H)'],
  fbClose: ['Close the find bar', 'Закрыть поиск'],
  fbCloseTitle: ['Close (Escape)', 'Закрыть (Escape)'],
  fbOptions: ['Find options', 'Настройки поиска'],
  fbWholeWord: ['Whole word', 'Слово целиком'],
  fbMatchCase: ['Match case', 'С учётом регистра'],
  fbRegex: ['Regular expression', 'Регулярное выражение'],
  fbForms: ['Word forms', 'Формы слова'],
  fbWith: ['Replace with', 'Заменить на'],
  fbWithTitle: ['Enter: replace this match; Ctrl+Enter: replace all (after a preview)', 'Enter — заменить это совпадение; Ctrl+Enter — заменить все (после просмотра)'],
  fbReplace: ['Replace', 'Заменить'],
  fbReplaceAllOpen: ['Replace all…', 'Заменить все…'],
  fbReplaceAll: ['Replace all', 'Заменить все'],
  fbReplaceAllN: f(
    (n: number) => `Replace all ${ne(n)}`,
    (n: number) => `Заменить все ${nr(n)}`,
  ),

  // The People panel.
  ppTitle: ['People of the book', 'Персонажи книги'],
  ppFinding: ['Finding…', 'Ищу…'],
  ppFindAgain: ['Find again', 'Найти заново'],
  ppFind: ['Find the people', 'Найти персонажей'],
  ppExportMd: ['Export Markdown…', 'Экспорт в Markdown…'],
  ppExportCsv: ['Export CSV…', 'Экспорт в CSV…'],
  ppExportTitle: ['Export the people of the book', 'Экспорт персонажей книги'],
  ppMentionsOf: f(
    (name: string) => `Mentions of ${name}`,
    (name: string) => `Упоминания: ${name}`,
  ),
  ppPrevious: ['Previous mention', 'Предыдущее упоминание'],
  ppNext: ['Next mention', 'Следующее упоминание'],
  ppPerChapter: ['Mentions per chapter', 'Упоминания по главам'],
  ppBack: ['Back to the list', 'Назад к списку'],
  ppList: ['People, the most named first', 'Персонажи, чаще названные первыми'],
  showMore: f(
    (k: number, of: number) => `Show ${ne(k)} more of ${ne(of)}`,
    (k: number, of: number) => `Показать ещё ${nr(k)} из ${nr(of)}`,
  ),

  // The Sets panel.
  tsTitle: ['Target sets', 'Наборы'],
  tsNewName: ["New set's name", 'Имя нового набора'],
  tsNamePlaceholder: ['e.g. Natasha scenes', 'например, сцены с Наташей'],
  tsCreate: ['Create set', 'Создать набор'],
  tsAddTo: ['Add the item at the cursor to', 'Добавить фрагмент у курсора в'],
  tsAdd: ['Add item', 'Добавить'],
  tsSets: ['Sets', 'Наборы'],
  tsCount: f(
    (name: string, n: number) => `${name} (${n} item${s(n)})`,
    (name: string, n: number) => `${name} (${n} ${rp(n, 'фрагмент', 'фрагмента', 'фрагментов')})`,
  ),
  tsNone: [
    'No sets yet. Create one, or run a command such as collect all mentions of "Ledger" into "ledger".',
    'Наборов ещё нет. Создайте набор или выполните команду вроде «собери все упоминания «Наташа» в набор «наташа»».',
  ],
  tsItems: f(
    (name: string, n: number) => `${name}: ${n} items`,
    (name: string, n: number) => `${name}: ${n} ${rp(n, 'фрагмент', 'фрагмента', 'фрагментов')}`,
  ),
  tsRemove: ['Remove', 'Убрать'],
  tsRemoveLabel: f(
    (what: string) => `Remove “${what}” from the set`,
    (what: string) => `Убрать «${what}» из набора`,
  ),
  tsDeleted: f(
    (n: number) => `${n} item(s) were deleted from the book since they were added.`,
    (n: number) => `Удалено из книги после добавления: ${n}.`,
  ),
  tsExportAs: ['Export the set as', 'Экспортировать набор как'],
  tsToFile: ['to the file', 'в файл'],
  tsExport: ['Export set', 'Экспортировать набор'],
  tsDelete: ['Delete this set', 'Удалить этот набор'],
  tsCreated: f(
    (name: string) => `Created the set “${name}”.`,
    (name: string) => `Набор «${name}» создан.`,
  ),
  tsCreateFirst: ['Create a set first, then add to it.', 'Сначала создайте набор, потом добавляйте в него.'],
  tsAdded: f(
    (type: string, where: string, n: number) => `Added the ${type} at ${where} to the set; it has ${n} item${s(n)}.`,
    (type: string, where: string, n: number) => `Фрагмент (${type}) у «${where}» добавлен в набор; в нём ${n} ${rp(n, 'фрагмент', 'фрагмента', 'фрагментов')}.`,
  ),
  tsHas: f(
    (name: string, n: number) => `The set “${name}” has ${n} items.`,
    (name: string, n: number) => `В наборе «${name}» ${n} ${rp(n, 'фрагмент', 'фрагмента', 'фрагментов')}.`,
  ),
  tsRemoved: f(
    (n: number) => `Removed from the set; ${n} left.`,
    (n: number) => `Убрано из набора; осталось ${n}.`,
  ),
  tsDeletedSet: f(
    (name: string) => `Deleted the set “${name}” (the items stay in the book).`,
    (name: string) => `Набор «${name}» удалён (фрагменты остались в книге).`,
  ),
  tsExported: f(
    (path: string, size: string) => `Exported the set to ${path} (${size}).`,
    (path: string, size: string) => `Набор экспортирован в ${path} (${size}).`,
  ),

  // The Search panel.
  scTitle: ['Search', 'Поиск'],
  scField: ['Find in the manuscript', 'Найти в рукописи'],
  scFieldTitle: ['Find in the manuscript (Ctrl+Shift+F)', 'Найти в рукописи (Ctrl+Shift+F)'],
  scPlaceholder: ['e.g. Zvezdochkin', 'например, Звездочкин'],
  scFind: ['Find', 'Найти'],
  scResults: f(
    (n: number) => `Results: ${n}`,
    (n: number) => `Найдено: ${n}`,
  ),
  spTitle: ['Spelling', 'Орфография'],
  spChecking: ['Checking…', 'Проверяю…'],
  spCheck: ['Check spelling', 'Проверить орфографию'],
  spCheckingSpelling: ['Checking the spelling…', 'Проверяю орфографию…'],
  spTimes: f(
    (n: number) => ` (${n} times)`,
    (n: number) => ` (${n} ${rp(n, 'раз', 'раза', 'раз')})`,
  ),
  spFirst: f(
    (n: number) => `The first ${n} are listed.`,
    (n: number) => `Показаны первые ${n}.`,
  ),
  spNone: f(
    (langs: string) => `No misspelt words (${langs}).`,
    (langs: string) => `Ошибок не найдено (${langs}).`,
  ),
  spFound: f(
    (n: number, more: boolean) => `${n}${more ? '+' : ''} word${s(n)} not in the dictionaries; the list follows.`,
    (n: number, more: boolean) => `${n}${more ? '+' : ''} ${rp(n, 'слово', 'слова', 'слов')} нет в словарях; список ниже.`,
  ),

  // The Browser workspace (answers to commands stay in the command's language).
  brTitle: ['Browser', 'Браузер'],
  brInput: ['Number command or goal', 'Команда с номером или цель'],
  brInputTitle: ['Number command or goal (Ctrl+Shift+L)', 'Команда с номером или цель (Ctrl+Shift+L)'],
  brPlaceholder: ['go to example.org · list · click 5 · type 3 hello', 'открой example.org · список · нажми 5 · введи 3 привет'],
  brWorking: ['Working…', 'Работаю…'],
  brGo: ['Go', 'Вперёд'],
  brHelpModel: [
    'Number commands run at once; anything else is a goal for the assistant.',
    'Команды с номерами выполняются сразу; всё остальное — цель для помощника.',
  ],
  brHelp: [
    'Number commands: list, click N, type N TEXT, select N VALUE, press KEY, scroll down, back, read page, go to ADDRESS. Goals in plain words need a model server (Settings).',
    'Команды с номерами: list, click N, type N ТЕКСТ, select N ЗНАЧЕНИЕ, press КЛАВИША, scroll down, back, read page, go to АДРЕС (и те же по-русски). Цели простыми словами требуют сервера модели (Настройки).',
  ],
  brBusy: ['Still working on the last step; press Stop to cancel it.', 'Ещё выполняется прошлый шаг; Стоп прервёт его.'],
  brYou: f(
    (text: string) => `You: ${text}`,
    (text: string) => `Вы: ${text}`,
  ),
  brWorkingOn: f(
    (text: string) => `Working on: ${text}`,
    (text: string) => `Выполняю: ${text}`,
  ),
  brReached: f(
    (why: string) => `Goal reached: ${why}`,
    (why: string) => `Цель достигнута: ${why}`,
  ),
  brNotReached: f(
    (why: string) => `Goal not reached: ${why}`,
    (why: string) => `Цель не достигнута: ${why}`,
  ),
  brAnswered: ['You answered.', 'Вы ответили.'],
  brQuestion: f(
    (q: string) => `Question: ${q}`,
    (q: string) => `Вопрос: ${q}`,
  ),
  brElementsTitle: ['The numbered elements (Ctrl+Shift+M)', 'Элементы с номерами (Ctrl+Shift+M)'],
  brElements: f(
    (total: number, atLeast: boolean, title: string) =>
      `Numbered elements${total >= 0 ? `: ${atLeast ? `more than ${total - 1}` : total}` : ''}${title ? ` on ${title}` : ''}`,
    (total: number, atLeast: boolean, title: string) =>
      `Элементы с номерами${total >= 0 ? `: ${atLeast ? `больше ${total - 1}` : total}` : ''}${title ? ` — ${title}` : ''}`,
  ),
  brValue: f(
    (v: string) => `, value ${v}`,
    (v: string) => `, значение ${v}`,
  ),
  brChecked: [', checked', ', отмечен'],
  brNotChecked: [', not checked', ', не отмечен'],
  brDisabled: [', disabled', ', недоступен'],
  brTextFor: f(
    (n: number) => `Text for ${n}`,
    (n: number) => `Текст для ${n}`,
  ),
  brSelectIn: f(
    (n: number) => `Select in ${n}`,
    (n: number) => `Выбрать в ${n}`,
  ),
  brTypeInto: f(
    (n: number) => `Type into ${n}`,
    (n: number) => `Ввести в ${n}`,
  ),
  brSelect: ['Select', 'Выбрать'],
  brType: ['Type', 'Ввести'],
  brClickN: f(
    (n: number) => `Click ${n}`,
    (n: number) => `Нажать ${n}`,
  ),
  brClick: ['Click', 'Нажать'],
  brStale: ['The page changed since this list: say list for the new numbers.', 'Страница изменилась после этого списка: скажите «список», чтобы услышать новые номера.'],
  brNoList: ['No list of this page yet: say list.', 'Этой страницы ещё нет в списке: скажите «список».'],
  brNoPage: ['No page yet. Type “go to” and an address, then “list”.', 'Страницы ещё нет. Введите «открой» и адрес, потом «список».'],
  brProgress: ['Progress', 'Ход работы'],
  brTabs: ['Tabs', 'Вкладки'],
  brCurrent: [' (current)', ' (текущая)'],
  brNoTabs: ['No tabs yet.', 'Вкладок ещё нет.'],
  brDownloads: ['Downloads', 'Загрузки'],
  brBytes: f(
    (n: number) => `${n} bytes`,
    (n: number) => `${n} байт`,
  ),
  brNoDownloads: ['None in this session.', 'В этом сеансе нет.'],
  brVisits: ['History of the last session', 'История прошлого сеанса'],
  brNothing: ['Nothing yet.', 'Пока ничего.'],
  brAsks: ['The assistant asks', 'Помощник спрашивает'],
  brYourAnswer: ['Your answer', 'Ваш ответ'],
  brAnswer: ['Answer', 'Ответить'],

  // A plan before it runs.
  plStepJSON: f(
    (i: number, e: string) => `Step ${i}: the arguments are not JSON (${e}); nothing was changed.`,
    (i: number, e: string) => `Шаг ${i}: аргументы — не JSON (${e}); ничего не изменено.`,
  ),
  plStepNow: f(
    (i: number, what: string) => `Step ${i} is now: ${what}.`,
    (i: number, what: string) => `Шаг ${i} теперь: ${what}.`,
  ),
  plRunning: f(
    (n: number) => `Running the plan of ${n} step${s(n)}…`,
    (n: number) => `Выполняю план из ${n} ${rp(n, 'шага', 'шагов', 'шагов')}…`,
  ),
  plRan: f(
    (n: number) => `Ran ${n} step${s(n)}.`,
    (n: number) => `Выполнено шагов: ${n}.`,
  ),
  plStopped: ['The plan stopped.', 'План остановлен.'],
  plRejected: ['Plan rejected; nothing was run.', 'План отклонён; ничего не выполнено.'],
  plTitle: f(
    (n: number) => `Plan of ${n} step${s(n)} — not run yet`,
    (n: number) => `План из ${n} ${rp(n, 'шага', 'шагов', 'шагов')} — ещё не выполнен`,
  ),
  plStep: f(
    (i: number, tool: string) => `Step ${i}${tool ? ` (${tool} arguments, JSON)` : ''}`,
    (i: number, tool: string) => `Шаг ${i}${tool ? ` (аргументы ${tool}, JSON)` : ''}`,
  ),
  plDoneEditing: f(
    (i: number) => `Done editing step ${i}`,
    (i: number) => `Готово: шаг ${i}`,
  ),
  plEditStep: f(
    (i: number) => `Edit step ${i}`,
    (i: number) => `Изменить шаг ${i}`,
  ),
  plEdit: ['Edit', 'Изменить'],
  plRunningShort: ['Running…', 'Выполняется…'],
  plApprove: ['Approve and run', 'Одобрить и выполнить'],
  plReject: ['Reject plan', 'Отклонить план'],
} satisfies Record<string, readonly [string, string] | readonly [Fn<never[]>, Fn<never[]>]>;

/** Messages is one side of the catalogue: each key's English or Russian. */
export type Messages = { [K in keyof typeof messages]: (typeof messages)[K][0] };
