// Entry point: global styles first (antd-mobile's variables, then ours on
// top), then the app.
import 'antd-mobile/es/global'
import './styles/global.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App, applyTheme } from './app/App'
import { setLang } from './i18n'
import { isDark, useAppStore } from './stores/app'
import { rememberInviteFromURL } from './lib/invite'
import { watchFirstScreen } from './app/first-screen'

// Theme and language before the first paint, so a dark-mode user never sees
// a white flash and no string renders in the wrong language.
const app = useAppStore.getState()
applyTheme(isDark(app))
setLang(app.lang)
// An invite link's code (/?ic=) is kept for the first guest login.
rememberInviteFromURL(window.location.search)
// The first screen the server drew goes once the app shows the same.
watchFirstScreen()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
