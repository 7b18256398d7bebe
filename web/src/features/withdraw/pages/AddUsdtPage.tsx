// addusdt (/mine/add-usdt): the network (TRC20 or ERC20), the address and
// the password. The address is checked here by the server's rules (TRC20
// base58check, ERC20 0x + 40 hex) before it is sent.
import { useState, type FormEvent } from 'react'
import { t } from '@/i18n'
import { checkUsdtAddress, type UsdtNetwork } from '@/lib/payout'
import { NavBar } from '@/components/NavBar'
import { Field } from '@/features/withdraw/components/Field'
import { AccountForm, problemText, useAccountForm } from '@/features/withdraw/components/AccountForm'
import styles from '@/features/withdraw/components/ui.module.css'

const NETWORKS: UsdtNetwork[] = ['TRC20', 'ERC20']

export default function AddUsdtPage() {
  const [network, setNetwork] = useState<UsdtNetwork>('TRC20')
  const [address, setAddress] = useState('')
  const form = useAccountForm(2)
  const [shown, setShown] = useState(false)
  const problem = checkUsdtAddress(network, address)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setShown(true)
    if (!form.checkPassword() || problem) return
    form.send({ actType: 2, network, address: address.trim(), passWord: form.password })
  }

  return (
    <div className={styles.page} data-testid="addusdt-page">
      <NavBar title={t('route.addusdt.title')} back="/mine/address?type=2" />
      <main className={styles.body}>
        <AccountForm
          form={form}
          onSubmit={submit}
          testid="addusdt-form"
          before={
            <div className={styles.segment} role="radiogroup" aria-label={t('wd.form.network')} style={{ marginBottom: 12 }}>
              {NETWORKS.map((n) => (
                <button
                  key={n}
                  type="button"
                  role="radio"
                  aria-checked={network === n}
                  className={network === n ? styles.segOn : ''}
                  onClick={() => setNetwork(n)}
                  data-testid={`addusdt-${n}`}
                >
                  {n}
                </button>
              ))}
            </div>
          }
          note={t('wd.form.usdtHint')}
        >
          <Field
            label={t('wd.form.address')}
            value={address}
            onChange={(v) => setAddress(v.trim())}
            placeholder={network === 'TRC20' ? t('wd.form.addressPhTRC20') : t('wd.form.addressPhERC20')}
            maxLength={42}
            error={shown ? problemText(problem) : null}
            testid="addusdt-address"
          />
        </AccountForm>
      </main>
    </div>
  )
}
