import {
  Button,
  Card,
  Empty,
  Form,
  Input,
  Modal,
  Pagination,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd'

/** What a list screen is made of, for the sign-in page's warm-up (style-warmup.tsx). */
export default function ListWarmup() {
  return (
    <Card variant="borderless" title={<Typography.Title level={4}>-</Typography.Title>}>
      <Form layout="inline">
        <Form.Item label="-">
          <Select options={[]} />
        </Form.Item>
      </Form>
      <Input allowClear />
      <Table
        rowKey="id"
        size="middle"
        scroll={{ x: 800 }}
        pagination={false}
        loading
        columns={[
          { title: '-', dataIndex: 'name' },
          { title: '-', key: 'status', render: () => <Tag color="success">-</Tag> },
          {
            title: '-',
            key: 'actions',
            render: () => (
              <Space size={0}>
                <Button type="link" size="small">
                  -
                </Button>
                <Popconfirm title="-">
                  <Button type="link" size="small" danger>
                    -
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
        dataSource={[{ id: 1, name: '-' }]}
      />
      <Pagination total={1} showSizeChanger showQuickJumper showTotal={(total) => total} />
      <Empty />
      <Modal open={false} />
    </Card>
  )
}
