// 内容 → 模块: the modules of one type (0-4) with their sub-modules; create,
// rename, delete, and order by drag (native HTML5 drag events) or by the
// up/down buttons (keyboard and phones). Each drop sends the whole sibling
// order (POST /api/admin/modules/order).
import { useState, type DragEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Button, Empty, Form, Input, Modal, Popconfirm, Segmented, Space, Spin, Tag, Typography } from 'antd'
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, EditOutlined, HolderOutlined, PlusOutlined } from '@ant-design/icons'
import { useT, type MessageKey } from '@/i18n'
import { Page } from '@/components/Page'
import { ErrorState, errorTip } from '@/components/ErrorState'
import { contentKeys, createModule, deleteModule, getModules, orderModules, renameModule, type AdminModule } from './api'
import { moved, topOrder } from './order'
import { typeLabel } from './labels'

// What the name dialog is for: a new top-level module, a new sub-module of
// pid, or a rename.
type NameDialog = { kind: 'top' } | { kind: 'sub'; pid: number } | { kind: 'rename'; m: AdminModule } | null

export function ModulesPage() {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const [type, setType] = useState(0)
  const [dialog, setDialog] = useState<NameDialog>(null)
  const q = useQuery({ queryKey: contentKeys.modules, queryFn: getModules })
  const done = (key: MessageKey) => () => {
    void message.success(t(key))
    void qc.invalidateQueries({ queryKey: contentKeys.modules })
  }
  const fail = (e: unknown) => void message.error(errorTip(e, t))
  const order = useMutation({ mutationFn: (v: { pid: number; ids: number[] }) => orderModules(v.pid, v.ids), onSuccess: done('content.orderSaved'), onError: fail })
  const remove = useMutation({ mutationFn: deleteModule, onSuccess: done('content.moduleDeleted'), onError: fail })
  const save = useMutation({
    mutationFn: (name: string) => {
      if (dialog?.kind === 'rename') return renameModule(dialog.m.id, name)
      if (dialog?.kind === 'sub') return createModule({ name, pid: dialog.pid })
      return createModule({ name, moduleType: type })
    },
    onSuccess: () => {
      setDialog(null)
      done('content.moduleSaved')()
    },
    onError: fail,
  })

  const all = q.data ?? []
  const tops = all.filter((m) => m.moduleType === type)
  // reorder sends the siblings of pid in their new order.
  const reorder = (pid: number, siblings: AdminModule[], from: number, to: number) => {
    const ids = moved(siblings.map((m) => m.id), from, to)
    if (ids.join() === siblings.map((m) => m.id).join()) return
    order.mutate({ pid, ids: pid === 0 ? topOrder(all, type, ids) : ids })
  }

  return (
    <Page
      title={t('content.modules')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'top' })} data-testid="module-add">
          {t('content.addModule')}
        </Button>
      }
    >
      <Segmented
        className="module-types"
        value={type}
        onChange={(v) => setType(Number(v))}
        options={[0, 1, 2, 3, 4].map((n) => ({ value: n, label: t(typeLabel(n) ?? 'content.type0') }))}
        data-testid="module-types"
      />
      {q.isPending ? (
        <Spin />
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : tops.length === 0 ? (
        <Empty description={t('content.modulesEmpty')} />
      ) : (
        <div className="module-tree" data-testid="modules-list">
          <OrderList
            items={tops}
            busy={order.isPending}
            onMove={(from, to) => reorder(0, tops, from, to)}
            render={(m) => (
              <ModuleRow m={m} onRename={() => setDialog({ kind: 'rename', m })} onDelete={() => remove.mutate(m.id)} onAddSub={() => setDialog({ kind: 'sub', pid: m.id })} />
            )}
            child={(m) =>
              m.subModules?.length ? (
                <div className="module-subs">
                  <OrderList
                    items={m.subModules}
                    busy={order.isPending}
                    onMove={(from, to) => reorder(m.id, m.subModules ?? [], from, to)}
                    render={(s) => <ModuleRow m={s} onRename={() => setDialog({ kind: 'rename', m: s })} onDelete={() => remove.mutate(s.id)} />}
                  />
                </div>
              ) : null
            }
          />
        </div>
      )}
      <Modal
        open={dialog !== null}
        title={dialog?.kind === 'rename' ? t('content.renameModule') : dialog?.kind === 'sub' ? t('content.addSubModule') : t('content.addModule')}
        onCancel={() => setDialog(null)}
        footer={null}
        destroyOnHidden
      >
        <Form layout="vertical" initialValues={{ name: dialog?.kind === 'rename' ? dialog.m.name : '' }} onFinish={(v: { name: string }) => save.mutate(v.name.trim())}>
          <Form.Item name="name" label={t('content.name')} rules={[{ required: true, whitespace: true, message: t('content.needName') }]}>
            <Input maxLength={20} autoFocus data-testid="module-name" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="module-save">
            {t('content.editor.save')}
          </Button>
        </Form>
      </Modal>
    </Page>
  )
}

function ModuleRow({ m, onRename, onDelete, onAddSub }: { m: AdminModule; onRename: () => void; onDelete: () => void; onAddSub?: () => void }) {
  const t = useT()
  return (
    <div className="module-row-body">
      <Typography.Text strong={m.pid === 0} className="module-name">
        {m.name}
      </Typography.Text>
      <Tag>{t('content.videoCountN', { n: m.videoCount, p: m.publishedCount })}</Tag>
      <Space size={4} wrap className="module-actions">
        {onAddSub && (
          <Button size="small" icon={<PlusOutlined />} onClick={onAddSub} data-testid={`module-addsub-${m.id}`}>
            {t('content.subModule')}
          </Button>
        )}
        <Button size="small" icon={<EditOutlined />} onClick={onRename} aria-label={t('content.renameModule')} data-testid={`module-rename-${m.id}`} />
        <Popconfirm title={t('content.deleteModuleConfirm', { name: m.name })} onConfirm={onDelete} okButtonProps={{ danger: true }}>
          <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('content.delete')} data-testid={`module-delete-${m.id}`} />
        </Popconfirm>
      </Space>
    </div>
  )
}

// OrderList shows items in order; a row is dragged by its handle (HTML5
// drag and drop) or moved one place by its up/down buttons.
function OrderList({ items, busy, onMove, render, child }: { items: AdminModule[]; busy: boolean; onMove: (from: number, to: number) => void; render: (m: AdminModule) => React.ReactNode; child?: (m: AdminModule) => React.ReactNode }) {
  const t = useT()
  const [dragging, setDragging] = useState<number | null>(null)
  const [over, setOver] = useState<number | null>(null)
  const drop = (e: DragEvent, to: number) => {
    e.preventDefault()
    e.stopPropagation()
    const from = dragging ?? Number(e.dataTransfer.getData('text/plain'))
    setDragging(null)
    setOver(null)
    if (!Number.isNaN(from)) onMove(from, to)
  }
  return (
    <ol className="order-list">
      {items.map((m, i) => (
        <li
          key={m.id}
          className={'order-item' + (over === i && dragging !== null && dragging !== i ? ' order-over' : '') + (dragging === i ? ' order-dragging' : '')}
          data-testid={`module-${m.id}`}
          onDragOver={(e) => {
            if (dragging === null) return
            e.preventDefault()
            e.stopPropagation()
            setOver(i)
          }}
          onDrop={(e) => drop(e, i)}
        >
          <div className="order-row">
            <span
              className="drag-handle"
              draggable={!busy}
              onDragStart={(e) => {
                e.stopPropagation()
                e.dataTransfer.effectAllowed = 'move'
                e.dataTransfer.setData('text/plain', String(i))
                setDragging(i)
              }}
              onDragEnd={() => {
                setDragging(null)
                setOver(null)
              }}
              title={t('content.dragHint')}
              data-testid={`module-drag-${m.id}`}
            >
              <HolderOutlined />
            </span>
            {render(m)}
            <Space size={2} className="order-buttons">
              <Button size="small" type="text" icon={<ArrowUpOutlined />} disabled={busy || i === 0} onClick={() => onMove(i, i - 1)} aria-label={t('content.moveUp')} data-testid={`module-up-${m.id}`} />
              <Button size="small" type="text" icon={<ArrowDownOutlined />} disabled={busy || i === items.length - 1} onClick={() => onMove(i, i + 1)} aria-label={t('content.moveDown')} data-testid={`module-down-${m.id}`} />
            </Space>
          </div>
          {child?.(m)}
        </li>
      ))}
    </ol>
  )
}
