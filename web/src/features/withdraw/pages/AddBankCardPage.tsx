// addbankcard (/mine/add-bank-card): bank, holder, card number and the
// password. Checked here by the server's rules first (Luhn, 12-19 digits,
// names); the server's answer, a wrong password included, shows inline.
import { useState, type FormEvent } from 'react'
import { t } from '@/i18n'
import { checkBankName, checkCardNumber, checkHolder, compactCard } from '@/lib/payout'
import { NavBar } from '@/components/NavBar'
import { Field } from '@/features/withdraw/components/Field'
import { AccountForm, problemText, useAccountForm } from '@/features/withdraw/components/AccountForm'
import { groupCard } from '@/features/withdraw/format'
import styles from '@/features/withdraw/components/ui.module.css'

export default function AddBankCardPage() {
  const [bankName, setBankName] = useState('')
  const [holder, setHolder] = useState('')
  const [number, setNumber] = useState('')
  const form = useAccountForm(1)
  const [shown, setShown] = useState(false)

  const problems = { bankName: checkBankName(bankName), holder: checkHolder(holder), number: checkCardNumber(number) }
  const err = (k: keyof typeof problems) => (shown ? problemText(problems[k]) : null)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setShown(true)
    if (!form.checkPassword() || Object.values(problems).some((p) => p != null)) return
    form.send({ actType: 1, bankName: bankName.trim(), holder: holder.trim(), number: compactCard(number), passWord: form.password })
  }

  return (
    <div className={styles.page} data-testid="addbank-page">
      <NavBar title={t('route.addbankcard.title')} back="/mine/address?type=1" />
      <main className={styles.body}>
        <AccountForm form={form} onSubmit={submit} testid="addbank-form">
          <Field
            label={t('wd.form.bankName')}
            value={bankName}
            onChange={setBankName}
            placeholder={t('wd.form.bankNamePh')}
            maxLength={30}
            error={err('bankName')}
            testid="addbank-bank"
          />
          <Field
            label={t('wd.form.holder')}
            value={holder}
            onChange={setHolder}
            placeholder={t('wd.form.holderPh')}
            autoComplete="cc-name"
            maxLength={30}
            error={err('holder')}
            testid="addbank-holder"
          />
          <Field
            label={t('wd.form.number')}
            value={number}
            onChange={(v) => setNumber(groupCard(v))}
            placeholder={t('wd.form.numberPh')}
            inputMode="numeric"
            autoComplete="cc-number"
            maxLength={23}
            error={err('number')}
            testid="addbank-number"
          />
        </AccountForm>
      </main>
    </div>
  )
}
