"""Keras metrics and losses used standalone and in compile: Precision, Recall, AUC (ROC and PR),
F1Score, TopKCategoricalAccuracy, MeanIoU, RootMeanSquaredError, R2Score, CosineSimilarity,
the Huber, LogCosh, KLDivergence, Poisson, CategoricalHinge, BinaryFocalCrossentropy losses with
label_smoothing and reductions, and a regression model with several metrics."""
import numpy as np
import tensorflow as tf

keras = tf.keras
keras.utils.set_random_seed(41)
rng = np.random.RandomState(41)
y_true = np.array([0, 1, 1, 0, 1, 0, 1, 1], 'float32')
y_prob = np.array([0.1, 0.8, 0.4, 0.3, 0.9, 0.6, 0.55, 0.2], 'float32')
for metric in (keras.metrics.Precision(), keras.metrics.Recall(thresholds=0.3),
               keras.metrics.AUC(), keras.metrics.AUC(curve='PR', num_thresholds=50),
               keras.metrics.BinaryAccuracy(threshold=0.5), keras.metrics.TruePositives(),
               keras.metrics.PrecisionAtRecall(0.5), keras.metrics.BinaryCrossentropy()):
    metric.update_state(y_true, y_prob)
    if isinstance(metric, keras.metrics.BinaryCrossentropy):
        metric.update_state(y_true[:4], y_prob[::-1][:4])
    else:
        metric.update_state(y_true[:4], y_prob[::-1][:4], sample_weight=[1, 2, 1, 0.5])
    print(metric.name, round(float(metric.result()), 5))
classes = rng.rand(6, 4).astype('float32')
labels = np.array([0, 3, 2, 1, 3, 0])
onehot = keras.utils.to_categorical(labels, 4)
f1 = keras.metrics.F1Score(average='macro', threshold=0.5)
f1.update_state(onehot, classes)
print('f1', round(float(f1.result()), 5))
topk = keras.metrics.TopKCategoricalAccuracy(k=2)
topk.update_state(onehot, classes)
print('top2', round(float(topk.result()), 5))
sparse_topk = keras.metrics.SparseTopKCategoricalAccuracy(k=3)
sparse_topk.update_state(labels, classes)
print('sparse top3', round(float(sparse_topk.result()), 5))
iou = keras.metrics.MeanIoU(num_classes=3)
iou.update_state([0, 1, 2, 2, 1, 0], [0, 2, 2, 1, 1, 0])
print('mean iou', round(float(iou.result()), 5))
reg_true = rng.randn(10, 2).astype('float32')
reg_pred = reg_true + 0.3 * rng.randn(10, 2).astype('float32')
for metric in (keras.metrics.RootMeanSquaredError(), keras.metrics.R2Score(),
               keras.metrics.CosineSimilarity(), keras.metrics.MeanAbsolutePercentageError(),
               keras.metrics.LogCoshError()):
    metric.update_state(reg_true, reg_pred)
    print(metric.name, round(float(metric.result()), 5))

for loss in (keras.losses.Huber(delta=0.5), keras.losses.LogCosh(),
             keras.losses.MeanSquaredLogarithmicError(),
             keras.losses.MeanSquaredError(reduction='sum'),
             keras.losses.MeanAbsoluteError(reduction=None)):
    print(loss.name, np.round(loss(reg_true, reg_pred).numpy(), 5).tolist())
probs = keras.activations.softmax(tf.constant(classes)).numpy()
for loss in (keras.losses.CategoricalCrossentropy(label_smoothing=0.1),
             keras.losses.KLDivergence(), keras.losses.Poisson(),
             keras.losses.CategoricalHinge(), keras.losses.CategoricalFocalCrossentropy()):
    print(loss.name, round(float(loss(onehot, probs)), 5))
for loss in (keras.losses.BinaryCrossentropy(from_logits=True, label_smoothing=0.2),
             keras.losses.BinaryFocalCrossentropy(gamma=2.0, apply_class_balancing=True),
             keras.losses.Hinge(), keras.losses.SquaredHinge()):
    print(loss.name, round(float(loss(y_true[:, None], y_prob[:, None])), 5))
print('sparse logits', round(float(keras.losses.SparseCategoricalCrossentropy(from_logits=True)(
    labels, classes, sample_weight=np.arange(6, dtype='float32'))), 5))



def squared(a, b):
    return tf.reduce_mean(tf.square(a - b), axis=-1)


x = rng.randn(40, 3).astype('float32')
y = (x @ np.array([2.0, -1.0, 0.5], 'float32') + 1.0)[:, None]
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
model.compile(optimizer=keras.optimizers.SGD(0.05), loss=keras.losses.Huber(),
              metrics=[keras.metrics.RootMeanSquaredError(), 'mae', keras.metrics.R2Score(),
                       keras.metrics.MeanMetricWrapper(squared, name='m')])
h = model.fit(x, y, epochs=3, batch_size=10, verbose=0)
for key in sorted(h.history):
    print(key, np.round(h.history[key], 5).tolist())
clf = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation='sigmoid')])
clf.compile(optimizer='adam', loss='binary_crossentropy',
            metrics=[keras.metrics.AUC(name='auc'), keras.metrics.Precision(name='p'),
                     keras.metrics.Recall(name='r')])
h = clf.fit(x, (y > 1).astype('float32'), epochs=2, batch_size=10, verbose=0)
for key in sorted(h.history):
    print(key, np.round(h.history[key], 5).tolist())
