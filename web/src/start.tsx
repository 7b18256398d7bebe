// The app itself: theme and language, then React. main.tsx (the page's
// entry) imports this once the page's first screen has been painted.
import { startTransition, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App, applyTheme, bootSteps } from './app/App'
import { watchFirstScreen } from './app/first-screen'
import { loadLang, setLang } from './i18n'
import { isDark, useAppStore } from './stores/app'
import { rememberInviteFromURL } from './lib/invite'
import { inTasks } from './app/tasks'

// Theme and language before the first paint, so a dark-mode user never sees
// a white flash and no string renders in the wrong language.
const app = useAppStore.getState()
applyTheme(isDark(app))
setLang(app.lang)
// An invite link's code (/?ic=) is kept for the first guest login.
rememberInviteFromURL(window.location.search)
// The first screen the server drew goes once the app shows the same.
watchFirstScreen()

// The first render as a transition: React then renders in slices of a few
// milliseconds, yielding to the browser between them, instead of one long
// task that holds every tap and frame until the whole first screen is
// built (on a slow phone, hundreds of milliseconds). What it shows does
// not change.
function render() {
  const root = createRoot(document.getElementById('root')!)
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    )
  })
}

// English is a chunk of its own (i18n/index.ts): a user who reads it waits
// for it, so the app never shows a screen of zh-CN first; zh-CN renders at
// once. Should it fail to load (offline), the app still renders, in zh-CN.
const langReady = app.lang === 'en' ? loadLang('en') : Promise.resolve()

// The start-up's steps (the first calls, the boot data) and the first
// render each in a task of their own, after the one that evaluated the
// app's modules (app/tasks.ts).
void inTasks([...bootSteps, () => void langReady.then(render, render)])
