/** Chinese names with their pinyin, for realName and a readable login nickName ('汉字:pinyin ...'), and mobile prefixes. */

function pairs(text: string): [string, string][] {
  return text
    .trim()
    .split(/\s+/)
    .map((p) => p.split(':') as [string, string])
}
export const SURNAMES: [string, string][] = pairs(
  '王:wang 李:li 张:zhang 刘:liu 陈:chen 杨:yang 黄:huang 赵:zhao 吴:wu 周:zhou 徐:xu 孙:sun 马:ma 朱:zhu 胡:hu ' +
    '郭:guo 何:he 高:gao 林:lin 罗:luo 郑:zheng 梁:liang 谢:xie 宋:song 唐:tang 许:xu 韩:han 冯:feng 邓:deng 曹:cao ' +
    '彭:peng 曾:zeng 肖:xiao 田:tian 董:dong 袁:yuan 潘:pan 于:yu 蒋:jiang 蔡:cai 余:yu 杜:du 叶:ye 程:cheng 苏:su ' +
    '魏:wei 吕:lv 丁:ding 任:ren 沈:shen 姚:yao 卢:lu 姜:jiang 崔:cui 钟:zhong 谭:tan 陆:lu 汪:wang 范:fan 金:jin ' +
    '石:shi 廖:liao 贾:jia 夏:xia 韦:wei 方:fang 白:bai 邹:zou 孟:meng 熊:xiong 欧阳:ouyang 司马:sima 诸葛:zhuge ',
)
export const GIVEN: [string, string][] = pairs(
  '伟:wei 芳:fang 娜:na 敏:min 静:jing 丽:li 强:qiang 磊:lei 军:jun 洋:yang 勇:yong 艳:yan 杰:jie 娟:juan 涛:tao ' +
    '明:ming 超:chao 秀:xiu 霞:xia 平:ping 刚:gang 桂:gui 英:ying 华:hua 玉:yu 兰:lan 婷:ting 雪:xue 慧:hui 鹏:peng ' +
    '宇:yu 浩:hao 欣:xin 怡:yi 晨:chen 阳:yang 佳:jia 嘉:jia 子:zi 涵:han 梓:zi 萱:xuan 博:bo 文:wen 轩:xuan 思:si ' +
    '雨:yu 泽:ze 晓:xiao 俊:jun 凯:kai 琳:lin 颖:ying 倩:qian 建:jian 国:guo 志:zhi 海:hai 峰:feng 斌:bin 波:bo ' +
    '辉:hui 红:hong 梅:mei 莉:li 晶:jing 彬:bin 瑶:yao 昊:hao 然:ran 一:yi 诗:shi 天:tian 乐:le 安:an 宁:ning 远:yuan ',
)
/** Mainland mobile prefixes in use. */
export const MOBILE_PREFIXES =
  '130 131 132 133 135 136 137 138 139 150 151 152 155 156 158 159 166 176 177 180 181 183 185 186 187 188 189 191 198 199'.split(
    ' ',
  )
