// A page of the console: its title, the actions on the right, its content.
import type { ReactNode } from 'react'
import { Typography } from 'antd'

export function Page({ title, extra, children }: { title: string; extra?: ReactNode; children: ReactNode }) {
  return (
    <section className="page">
      <header className="page-head">
        <Typography.Title level={4} className="page-title">
          {title}
        </Typography.Title>
        {extra ? <div className="page-extra">{extra}</div> : null}
      </header>
      {children}
    </section>
  )
}
