// The ten recovery codes, shown once after enrolment. The console opens only
// after the operator says they are saved.
import { useState } from 'react'
import { Alert, Button, Card, Checkbox, Space, Typography } from 'antd'
import { CopyOutlined, DownloadOutlined } from '@ant-design/icons'
import { useT } from '@/i18n'
import { recoveryFile } from '@/lib/codes'
import { save } from '@/lib/save'

export function RecoveryCodes(props: { account: string; codes: string[]; onContinue: () => void }) {
  const t = useT()
  const [saved, setSaved] = useState(false)
  const [copied, setCopied] = useState(false)
  const text = props.codes.join('\n')

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(true)
    } catch {
      setCopied(false)
    }
  }
  const download = () => save(new Blob([recoveryFile(props.account, props.codes, new Date())], { type: 'text/plain;charset=utf-8' }), `prima-recovery-${props.account}.txt`)

  return (
    <Card className="auth-card" data-testid="recovery">
      <Typography.Title level={3} className="auth-title">
        {t('codes.title')}
      </Typography.Title>
      <Alert type="warning" showIcon title={t('codes.intro')} />
      <div className="codes" data-testid="recovery-codes">
        {props.codes.map((c) => (
          <code key={c} className="mono">
            {c}
          </code>
        ))}
      </div>
      <Space wrap>
        <Button icon={<CopyOutlined />} onClick={() => void copy()}>
          {copied ? t('common.copied') : t('codes.copy')}
        </Button>
        <Button icon={<DownloadOutlined />} onClick={download} data-testid="recovery-download">
          {t('codes.download')}
        </Button>
      </Space>
      <div className="codes-confirm">
        <Checkbox checked={saved} onChange={(e) => setSaved(e.target.checked)} data-testid="recovery-saved">
          {t('codes.saved')}
        </Checkbox>
      </div>
      <Button type="primary" block disabled={!saved} onClick={props.onContinue} data-testid="recovery-continue">
        {t('codes.continue')}
      </Button>
    </Card>
  )
}
