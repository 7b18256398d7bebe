// publisharticle (/community/publisharticle): a title and a small rich-text
// editor (contenteditable) with bold, italic, heading, list, quote, link
// and picture buttons. Pasted content comes in as plain text. A picture is
// uploaded, then written as <img data-asset="id"> (the server keeps only
// that: internal/community/sanitize.go) with a src to show it here. The
// body is a device draft; the server sanitises what is sent.
import { useEffect, useRef, useState } from 'react'
import { t, type MessageKey } from '@/i18n'
import { api, ApiError } from '@/lib/api'
import { uploadFile } from '@/lib/upload'
import { toast } from '@/lib/toast'
import { Counter, DraftBar, Pickers, PublishFrame, styles, useAuthor, useDraftSaver, usePublish } from '@/features/community/publish/components/Shared'
import { ARTICLE_MAX, IMAGE_ACCEPT, TITLE_MAX, articleProblem, chars, clearDraft, imageProblem, loadDraft, pastedText, percent, type UploadedAsset, safeLink, type ArticleDraft } from '@/features/community/publish/rules'

// cleanBody is the editor's HTML as sent and kept: each picture reduced to
// its data-asset, anything else of an img dropped.
export function cleanBody(root: HTMLElement): string {
  const copy = root.cloneNode(true) as HTMLElement
  copy.querySelectorAll('img').forEach((img) => {
    const id = img.getAttribute('data-asset')
    if (!id || !/^\d+$/.test(id)) {
      img.remove()
      return
    }
    for (const a of Array.from(img.attributes)) if (a.name !== 'data-asset') img.removeAttribute(a.name)
  })
  return copy.innerHTML
}

function exec(cmd: string, value?: string) {
  document.execCommand(cmd, false, value)
}

export default function PublishArticlePage() {
  const me = useAuthor()
  const restored = useRef<ArticleDraft | null>(me.state === 'ok' ? loadDraft('article', me.uid) : null)
  const d = restored.current
  const [title, setTitle] = useState(d?.title ?? '')
  const [html, setHtml] = useState(d?.html ?? '')
  const [textLength, setTextLength] = useState(0)
  const [pictures, setPictures] = useState(0)
  const [topicID, setTopic] = useState(d?.topicID ?? 0)
  const [moduleID, setModule] = useState(d?.moduleID ?? 0)
  const [uploading, setUploading] = useState<number | null>(null)
  const editor = useRef<HTMLDivElement>(null)
  const range = useRef<Range | null>(null)
  const input = useRef<HTMLInputElement>(null)
  const { publish, busy, error } = usePublish('article', me.uid)

  const measure = () => {
    const el = editor.current
    if (!el) return
    setTextLength(chars((el.innerText || '').replace(/\s+/g, ' ').trim()))
    setPictures(el.querySelectorAll('img[data-asset]').length)
    setHtml(cleanBody(el))
  }

  // The restored body goes in once; its pictures get fresh signed URLs.
  useEffect(() => {
    const el = editor.current
    if (!el) return
    try {
      document.execCommand('defaultParagraphSeparator', false, 'p')
    } catch {
      // older engines: <div> paragraphs, which the server turns into text
    }
    if (restored.current?.html) {
      el.innerHTML = restored.current.html
      el.querySelectorAll<HTMLImageElement>('img[data-asset]').forEach((img) => {
        api
          .get<UploadedAsset>('/api/app/vid/uploadStatic', { id: Number(img.dataset.asset) })
          .then((a) => {
            if (a.display || a.thumb) img.src = a.display || a.thumb || ''
          })
          .catch(() => img.remove())
      })
    }
    measure()
  }, [me.state])

  const draft: ArticleDraft = { title, html, topicID, moduleID }
  const { saved, setSaved } = useDraftSaver('article', me.uid, draft, (v) => !v.title && !v.html.replace(/<[^>]*>/g, '').trim() && !v.html.includes('<img'))

  const keep = () => {
    const sel = window.getSelection()
    if (sel && sel.rangeCount > 0 && editor.current?.contains(sel.anchorNode)) range.current = sel.getRangeAt(0).cloneRange()
  }
  // The caret is followed as it moves (typing with an IME or a paste moves
  // it without key events), so a picture goes where it was.
  useEffect(() => {
    const follow = () => {
      const sel = window.getSelection()
      if (sel && sel.rangeCount > 0 && editor.current?.contains(sel.anchorNode)) range.current = sel.getRangeAt(0).cloneRange()
    }
    document.addEventListener('selectionchange', follow)
    return () => document.removeEventListener('selectionchange', follow)
  }, [])
  const restore = () => {
    const el = editor.current
    if (!el) return
    const sel = window.getSelection()
    // Still in the editor (the tool buttons keep the focus): nothing to do.
    if (document.activeElement === el && sel && sel.rangeCount > 0 && el.contains(sel.anchorNode)) return
    el.focus()
    if (sel && range.current) {
      sel.removeAllRanges()
      sel.addRange(range.current)
    } else if (sel) {
      const r = document.createRange()
      r.selectNodeContents(el)
      r.collapse(false)
      sel.removeAllRanges()
      sel.addRange(r)
    }
  }
  const tool = (fn: () => void) => () => {
    restore()
    fn()
    keep()
    measure()
  }

  const insertPicture = (file: File | undefined) => {
    if (!file) return
    const why = imageProblem(file)
    if (why) {
      toast.fail(t(why))
      return
    }
    setUploading(0)
    const h = uploadFile<UploadedAsset>('/api/app/vid/uploadStatic', file, { onProgress: (s, total) => setUploading(percent(s, total)) })
    h.promise.then(
      (a) => {
        setUploading(null)
        restore()
        const src = (a.display || a.thumb || '').replace(/"/g, '&quot;')
        exec('insertHTML', `<img data-asset="${a.id}" src="${src}" alt=""><p><br></p>`)
        keep()
        measure()
      },
      (e: unknown) => {
        setUploading(null)
        toast.fail(e instanceof ApiError ? e.tip : t('pub.uploadFailed'))
      },
    )
  }

  const reset = () => {
    setTitle('')
    setTopic(0)
    setModule(0)
    if (editor.current) editor.current.innerHTML = ''
    range.current = null
    measure()
    clearDraft('article', me.uid)
    restored.current = null
    setSaved(false)
  }

  const problem: MessageKey | null = articleProblem({ title, textLength, pictures }) ?? (uploading != null ? 'pub.waitUploads' : null)
  const tools: { key: string; label: MessageKey; glyph: string; run: () => void }[] = [
    { key: 'bold', label: 'pub.tool.bold', glyph: 'B', run: () => exec('bold') },
    { key: 'italic', label: 'pub.tool.italic', glyph: 'I', run: () => exec('italic') },
    { key: 'heading', label: 'pub.tool.heading', glyph: 'H', run: () => exec('formatBlock', 'h2') },
    { key: 'list', label: 'pub.tool.list', glyph: '•≡', run: () => exec('insertUnorderedList') },
    { key: 'quote', label: 'pub.tool.quote', glyph: '❝', run: () => exec('formatBlock', 'blockquote') },
    {
      key: 'link',
      label: 'pub.tool.link',
      glyph: t('pub.tool.link'),
      run: () => {
        const url = safeLink(window.prompt(t('pub.linkPrompt'), 'https://') ?? '')
        if (url) exec('createLink', url)
        else toast.text(t('pub.linkBad'))
      },
    },
  ]

  return (
    <PublishFrame
      title={t('route.publisharticle.title')}
      testid="publish-article-page"
      canPublish={problem == null}
      busy={busy}
      onPublish={() => publish({ title: title.trim(), html, topicID, moduleID })}
    >
      <input
        ref={input}
        type="file"
        accept={IMAGE_ACCEPT}
        className={styles.file}
        tabIndex={-1}
        aria-hidden="true"
        data-testid="publish-article-input"
        onChange={(e) => {
          insertPicture(e.target.files?.[0])
          e.target.value = ''
        }}
      />
      <input
        className={styles.input}
        value={title}
        maxLength={TITLE_MAX * 2}
        placeholder={t('pub.articleTitle')}
        onChange={(e) => setTitle(e.target.value)}
        data-testid="publish-title"
      />
      <div className={styles.toolbar} role="toolbar" aria-label={t('pub.articleBody')}>
        {tools.map((b) => (
          <button
            key={b.key}
            type="button"
            className={styles.toolBtn}
            aria-label={t(b.label)}
            title={t(b.label)}
            onMouseDown={(e) => e.preventDefault()}
            onClick={tool(b.run)}
            data-testid={`publish-tool-${b.key}`}
            style={b.key === 'bold' ? { fontWeight: 800 } : b.key === 'italic' ? { fontStyle: 'italic' } : undefined}
          >
            {b.glyph}
          </button>
        ))}
        <button
          type="button"
          className={styles.toolBtn}
          aria-label={t('pub.tool.picture')}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => {
            keep()
            input.current?.click()
          }}
          data-testid="publish-tool-picture"
        >
          {uploading != null ? t('pub.uploading', { p: uploading }) : t('pub.tool.picture')}
        </button>
      </div>
      <div
        ref={editor}
        className={styles.editor}
        contentEditable
        suppressContentEditableWarning
        role="textbox"
        aria-multiline="true"
        aria-label={t('pub.articleBody')}
        data-placeholder={t('pub.articlePlaceholder')}
        data-testid="publish-editor"
        onInput={measure}
        onKeyUp={keep}
        onMouseUp={keep}
        onBlur={keep}
        onPaste={(e) => {
          e.preventDefault()
          exec('insertText', pastedText(e.clipboardData.getData('text/plain')))
          measure()
        }}
        onDrop={(e) => e.preventDefault()}
      />
      <Counter n={textLength} max={ARTICLE_MAX} />
      <DraftBar saved={saved} restored={restored.current != null} onClear={reset} />
      <Pickers topicID={topicID} moduleID={moduleID} onTopic={setTopic} onModule={setModule} />
      {problem && (title !== '' || textLength > 0) && (
        <p className={styles.hint} data-testid="publish-problem">
          {t(problem)}
        </p>
      )}
      {error && (
        <p className={styles.error} role="alert" data-testid="publish-error">
          {error}
        </p>
      )}
    </PublishFrame>
  )
}
