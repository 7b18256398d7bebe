// publishrule (/community/publish/rule): the operator's rules (or the
// app's own when none are written), whether posts are reviewed, and the
// three kinds of post to start. A visitor signs in and a guest registers
// first; both may read the rules.
import { Link } from 'react-router'
import { t } from '@/i18n'
import { NavBar } from '@/components/NavBar'
import { StateView } from '@/components/StateView'
import { useRules } from '@/features/community/publish/api/publish'
import { Gate, styles, useAuthor } from '@/features/community/publish/components/Shared'

const KINDS = [
  { kind: 'picture', path: '/community/publishpicture', glyph: '▦', color: '#ff6b00' },
  { kind: 'video', path: '/community/publishvideo', glyph: '▶', color: '#ff2d55' },
  { kind: 'article', path: '/community/publisharticle', glyph: '✎', color: '#007aff' },
] as const

export default function PublishRulePage() {
  const me = useAuthor()
  const q = useRules()
  return (
    <div className={styles.page} data-testid="publish-rule-page">
      <NavBar title={t('route.publishrule.title')} back="/community" />
      <main className={styles.body}>
        <h2 className={styles.h2}>{t('pub.rulesTitle')}</h2>
        {q.isPending ? (
          <StateView kind="loading" compact />
        ) : (
          <>
            {q.isError && <StateView kind="error" compact error={q.error} onRetry={() => void q.refetch()} />}
            <p className={styles.rulesText} data-testid="publish-rules">
              {q.data?.rules.trim() || t('pub.rulesDefault')}
            </p>
            {q.data?.review && <p className={styles.hint}>{t('pub.reviewOn')}</p>}
          </>
        )}
        <h2 className={styles.h2}>{t('pub.choose')}</h2>
        {me.state === 'ok' ? (
          <div className={styles.kinds}>
            {KINDS.map((k) => (
              <Link key={k.kind} to={k.path} className={`${styles.kind} prima-hit`} data-testid={`publish-kind-${k.kind}`}>
                <span className={styles.kindGlyph} style={{ background: k.color }} aria-hidden="true">
                  {k.glyph}
                </span>
                <span className={styles.kindName}>{t(`pub.kind.${k.kind}`)}</span>
                <span className={styles.kindHint}>{t(`pub.kind.${k.kind}Hint`)}</span>
              </Link>
            ))}
          </div>
        ) : (
          <Gate state={me.state} />
        )}
      </main>
    </div>
  )
}
