import { createRoot } from 'react-dom/client'
import 'antd/dist/antd.css'
import './styles.css'
import { App } from '@/app/App'

createRoot(document.getElementById('root')!).render(<App />)
