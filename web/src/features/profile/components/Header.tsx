// The head of a user's page (mine at /myhome, anyone's at /usercenter/:uid):
// portrait, name and VIP badge, uid and gender, bio, the four counts, and
// the page's actions (edit for mine; follow and message for others).
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { t } from '@/i18n'
import type { Extension } from '@/lib/people'
import { formatCount } from '@/lib/time'
import { PersonAvatar } from './Avatar'
import styles from './ui.module.css'

export interface HeaderPerson {
  uid: number
  name: string
  portrait: string
  vipLevel: number
  gender?: number
  bio?: string
}

interface Props {
  person: HeaderPerson
  ext: Extension | undefined
  mine: boolean
  actions: ReactNode
}

function Count({ n, label, to, testid }: { n: number | undefined; label: string; to?: string; testid: string }) {
  const body = (
    <>
      <b data-testid={testid}>{n == null ? '—' : formatCount(n)}</b>
      <span>{label}</span>
    </>
  )
  return to ? (
    <Link to={to} className={`${styles.count} prima-hit`}>
      {body}
    </Link>
  ) : (
    <div className={styles.count}>{body}</div>
  )
}

export function ProfileHeader({ person, ext, mine, actions }: Props) {
  const lists = mine ? '/mine/userguanzhu' : `/mine/userguanzhu?uid=${person.uid}`
  const gender = person.gender === 1 || person.gender === 2 ? t(person.gender === 1 ? 'people.gender.1' : 'people.gender.2') : ''
  return (
    <section className={styles.header} data-testid="people-header" data-uid={person.uid}>
      <div className={styles.top}>
        <PersonAvatar src={person.portrait} size={80} eager />
        <div className={styles.who}>
          <h2 className={styles.name}>
            <span className={styles.nameText} data-testid="people-name">
              {person.name}
            </span>
            {person.vipLevel > 0 && (
              <span className={`${styles.badge} ${person.vipLevel > 1 ? styles.badgeSvip : ''}`}>{t(person.vipLevel > 1 ? 'vip.super' : 'vip.vip')}</span>
            )}
          </h2>
          <p className={styles.meta} data-testid="people-uid">
            {t('people.uid', { uid: person.uid })}
            {gender && <span data-testid="people-gender"> · {gender}</span>}
          </p>
        </div>
      </div>
      <p className={`${styles.bio} ${person.bio ? '' : styles.bioEmpty}`} data-testid="people-bio">
        {person.bio || t(mine ? 'people.myNoBio' : 'people.noBio')}
      </p>
      <div className={styles.counts}>
        <Count n={ext?.followCount} label={t('people.follow')} to={`${lists}${mine ? '?' : '&'}tab=follow`} testid="people-follow-count" />
        <Count n={ext?.fansCount} label={t('people.fans')} to={`${lists}${mine ? '?' : '&'}tab=fans`} testid="people-fans-count" />
        <Count n={ext?.likeCount} label={t('people.likes')} testid="people-like-count" />
        <Count n={ext?.postCount} label={t('people.posts')} testid="people-post-count" />
      </div>
      <div className={styles.actions}>{actions}</div>
    </section>
  )
}

export function HeaderSkeleton() {
  return (
    <section className={styles.header} aria-busy="true" data-testid="people-header-loading">
      <div className={styles.top}>
        <span className={`${styles.skAvatar} prima-skeleton`} />
        <div className={styles.who}>
          <span className={`${styles.skLine} prima-skeleton`} />
          <span className={`${styles.skLine} ${styles.skShort} prima-skeleton`} />
        </div>
      </div>
    </section>
  )
}
